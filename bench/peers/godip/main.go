// Command mobadj-godip adjudicates mobadj batch lines with godip, the Go adjudicator behind
// diplicity, for the side-by-side benchmark (bench/versus.py).
//
// It reads one JSON object a line on standard input (the standard map only: id, phase,
// units, centers, dislodged, standoffs, orders, as bench/games.py writes them), sets up a
// godip state on a map graph built once, reads each order text with godip's DATC order
// reader, adjudicates the phase and writes one JSON line: each order's resolution, the
// units, dislodged units and supply centres after the phase, and the next phase.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/zond/godip"
	"github.com/zond/godip/state"
	"github.com/zond/godip/variants/classical"
	"github.com/zond/godip/variants/classical/start"
)

type dislodged struct {
	Unit     string `json:"unit"`
	From     string `json:"from"`
	Convoyed bool   `json:"convoyed"`
}

type line struct {
	ID        json.RawMessage        `json:"id"`
	Phase     string                 `json:"phase"`
	Units     map[string][]string    `json:"units"`
	Centers   map[string][]string    `json:"centers"`
	Dislodged map[string][]dislodged `json:"dislodged"`
	Standoffs []string               `json:"standoffs"`
	Orders    map[string][]string    `json:"orders"`
}

type answer struct {
	ID        json.RawMessage     `json:"id"`
	Phase     string              `json:"phase"`
	NextPhase string              `json:"next_phase"`
	Orders    map[string]string   `json:"orders"`
	Units     map[string][]string `json:"units"`
	Dislodged map[string][]string `json:"dislodged"`
	Centers   map[string][]string `json:"centers"`
	Errors    []string            `json:"errors"`
}

var graph = start.Graph()

// godip's names of the four seas whose abbreviations differ from mobadj's standard map.
var godipNames = map[string]godip.Province{"lyo": "gol", "mao": "mid", "nao": "nat", "nwg": "nrg"}

func province(text string) godip.Province {
	lower := strings.ToLower(text)
	if name, ok := godipNames[lower]; ok {
		return name
	}
	return godip.Province(lower)
}

func nation(text string) godip.Nation {
	n, err := classical.DATCNation(text)
	if err != nil {
		return godip.Nation(text)
	}
	return n
}

// unit reads "A PAR" or "F STP/SC".
func unit(text string, power godip.Nation) (godip.Province, godip.Unit, error) {
	kind, loc, ok := strings.Cut(text, " ")
	if !ok {
		return "", godip.Unit{}, fmt.Errorf("bad unit %q", text)
	}
	typ, err := classical.DATCUnitType(kind)
	if err != nil {
		return "", godip.Unit{}, err
	}
	return province(loc), godip.Unit{Type: typ, Nation: power}, nil
}

// phaseOf reads "S1901M", "F1901R", "W1901A" (godip puts adjustments in the autumn).
func phaseOf(text string) (godip.Phase, error) {
	if len(text) < 6 {
		return nil, fmt.Errorf("bad phase %q", text)
	}
	year, err := strconv.Atoi(text[1 : len(text)-1])
	if err != nil {
		return nil, err
	}
	season := godip.Spring
	if text[0] != 'S' {
		season = godip.Fall
	}
	typ := map[byte]godip.PhaseType{'M': godip.Movement, 'R': godip.Retreat, 'A': godip.Adjustment}[text[len(text)-1]]
	return classical.NewPhase(year, season, typ), nil
}

// datcText writes an order the way godip's DATC reader takes it: retreats as moves,
// "D" as disband, godip's names for the seas.
func datcText(text string) string {
	fields := strings.Fields(text)
	for i, field := range fields {
		if name, ok := godipNames[strings.ToLower(field)]; ok {
			fields[i] = string(name)
		}
	}
	text = strings.Join(fields, " ")
	if len(fields) == 4 && strings.EqualFold(fields[2], "R") {
		return fields[0] + " " + fields[1] + " - " + fields[3]
	}
	if len(fields) == 3 && strings.EqualFold(fields[2], "D") {
		return fields[0] + " " + fields[1] + " disband"
	}
	return text
}

func phaseText(p godip.Phase) string {
	season := "S"
	if p.Season() == godip.Fall {
		season = "F"
		if p.Type() == godip.Adjustment {
			season = "W"
		}
	}
	return fmt.Sprintf("%s%d%s", season, p.Year(), string(p.Type())[:1])
}

func adjudicate(in line) (answer, error) {
	out := answer{ID: in.ID, Phase: in.Phase, Orders: map[string]string{}, Errors: []string{}}
	phase, err := phaseOf(in.Phase)
	if err != nil {
		return out, err
	}
	s := state.New(graph, phase, classical.BackupRule, nil, nil)
	units := map[godip.Province]godip.Unit{}
	for power, texts := range in.Units {
		for _, text := range texts {
			prov, u, err := unit(text, nation(power))
			if err != nil {
				return out, err
			}
			units[prov] = u
		}
	}
	if err := s.SetUnits(units); err != nil {
		return out, err
	}
	centers := map[godip.Province]godip.Nation{}
	for power, provs := range in.Centers {
		for _, p := range provs {
			centers[province(p)] = nation(power)
		}
	}
	s.SetSupplyCenters(centers)
	for power, list := range in.Dislodged {
		for _, d := range list {
			prov, u, err := unit(d.Unit, nation(power))
			if err != nil {
				return out, err
			}
			if err := s.SetDislodged(prov, u); err != nil {
				return out, err
			}
			// As godip itself: no dislodger after a convoyed attack, so that the unit
			// may retreat to the attacker's origin.
			if d.From != "" && !d.Convoyed {
				s.SetDislodger(province(d.From), prov)
			}
		}
	}
	for _, p := range in.Standoffs {
		s.AddBounce(province(p), province(p))
	}
	given := map[godip.Province]godip.Adjudicator{}
	texts := map[godip.Province]string{}
	for _, list := range in.Orders {
		for _, text := range list {
			prov, order, err := classical.DATCOrder(datcText(text))
			if err != nil {
				out.Errors = append(out.Errors, err.Error())
				continue
			}
			given[prov] = order
			texts[prov] = text
		}
	}
	s.SetOrders(given)
	if err := s.Next(); err != nil {
		return out, err
	}
	for prov, res := range s.Resolutions() {
		text, ok := texts[prov]
		if !ok {
			text = string(prov)
		}
		if res == nil {
			out.Orders[text] = "succeeds"
		} else {
			out.Orders[text] = res.Error()
		}
	}
	out.NextPhase = phaseText(s.Phase())
	out.Units = map[string][]string{}
	for prov, u := range s.Units() {
		out.Units[string(u.Nation)] = append(out.Units[string(u.Nation)], string(u.Type)[:1]+" "+strings.ToUpper(string(prov)))
	}
	out.Dislodged = map[string][]string{}
	for prov, u := range s.Dislodgeds() {
		out.Dislodged[string(u.Nation)] = append(out.Dislodged[string(u.Nation)], string(u.Type)[:1]+" "+strings.ToUpper(string(prov)))
	}
	out.Centers = map[string][]string{}
	for prov, n := range s.SupplyCenters() {
		out.Centers[string(n)] = append(out.Centers[string(n)], strings.ToUpper(string(prov)))
	}
	return out, nil
}

func main() {
	reader := bufio.NewReaderSize(os.Stdin, 1<<20)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()
	encoder := json.NewEncoder(writer)
	for {
		text, err := reader.ReadBytes('\n')
		if len(text) > 0 {
			var in line
			out := answer{Errors: []string{}}
			if e := json.Unmarshal(text, &in); e != nil {
				out.Errors = append(out.Errors, e.Error())
			} else if got, e := adjudicate(in); e != nil {
				got.Errors = append(got.Errors, e.Error())
				out = got
			} else {
				out = got
			}
			if e := encoder.Encode(out); e != nil {
				fmt.Fprintln(os.Stderr, e)
				os.Exit(1)
			}
			if reader.Buffered() == 0 {
				writer.Flush() // answer a line at once when no more input waits
			}
		}
		if err != nil {
			return
		}
	}
}
