// mobadj-dipcc adjudicates mobadj batch lines with dipcc, the C++ engine of Cicero, for the
// side-by-side benchmark (bench/versus.py).
//
// It reads one JSON object a line on standard input (the standard map: id, phase, units,
// centers, dislodged, standoffs, orders, as bench/games.py writes them), sets up a dipcc
// GameState, reads each order text with dipcc's order reader (builds, removals, convoyed
// moves and a fleet's move to the only coast in reach rewritten in its notation), processes
// the phase and writes one JSON line: the id and the state after the phase as dipcc writes
// it (phase, units, centres, retreats, builds).
#include <exception>
#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "game_state.h"
#include "loc.h"
#include "order.h"
#include "owned_unit.h"
#include "phase.h"
#include "power.h"
#include "thirdparty/nlohmann/json.hpp"

using namespace dipcc;
using nlohmann::json;

namespace {

// "S1901M" as dipcc names it: "S1901M"; "W1901A" likewise.
Phase phase_of(const std::string &text) { return Phase(text); }

OwnedUnit owned_unit(Power power, const std::string &text) {
  // "A PAR", "F STP/SC"
  UnitType type = text.at(0) == 'F' ? UnitType::FLEET : UnitType::ARMY;
  return OwnedUnit{power, type, loc_from_str(text.substr(2))};
}

std::vector<std::string> words(const std::string &text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

// The coast a fleet reaches from a place next to only one coast of a province with two
// ("F GAS - SPA" is a move to SPA/NC, DATC 6.B.2): mobadj reads the move without the coast,
// dipcc only with it.
const std::unordered_map<std::string, std::string> ONLY_COAST = {
    {"AEG BUL", "BUL/SC"}, {"GRE BUL", "BUL/SC"}, {"BLA BUL", "BUL/EC"},
    {"RUM BUL", "BUL/EC"}, {"BAR STP", "STP/NC"}, {"NWY STP", "STP/NC"},
    {"BOT STP", "STP/SC"}, {"FIN STP", "STP/SC"}, {"LVN STP", "STP/SC"},
    {"GAS SPA", "SPA/NC"}, {"LYO SPA", "SPA/SC"}, {"MAR SPA", "SPA/SC"},
    {"WES SPA", "SPA/SC"}};

// An order text of mobadj's notation in dipcc's (MILA's): "Build A PAR" -> "A PAR B",
// "Remove A PAR" -> "A PAR D", "... VIA CONVOY" -> "... VIA", "F GAS - SPA" -> "F GAS -
// SPA/NC".
std::string dipcc_text(const std::string &text) {
  auto w = words(text);
  if (w.size() == 4 && w[0] == "F" && w[2] == "-") {
    auto coast = ONLY_COAST.find(w[1] + " " + w[3]);
    if (coast != ONLY_COAST.end()) return "F " + w[1] + " - " + coast->second;
  }
  if (w.size() == 3 && (w[0] == "Build" || w[0] == "BUILD")) return w[1] + " " + w[2] + " B";
  if (w.size() == 3 && (w[0] == "Remove" || w[0] == "REMOVE")) return w[1] + " " + w[2] + " D";
  if (w.size() >= 2 && w[w.size() - 1] == "CONVOY" && w[w.size() - 2] == "VIA") {
    std::string out;
    for (size_t i = 0; i + 1 < w.size(); ++i) out += (i ? " " : "") + w[i];
    return out;
  }
  return text;
}

json answer(const json &in) {
  GameState state;
  state.set_phase(phase_of(in.at("phase").get<std::string>()));
  if (in.contains("units")) {
    for (auto &[power, units] : in["units"].items()) {
      Power p = power_from_str(power);
      for (auto &u : units) {
        OwnedUnit unit = owned_unit(p, u.get<std::string>());
        state.set_unit(p, unit.type, unit.loc);
      }
    }
  }
  if (in.contains("centers")) {
    for (auto &[power, centers] : in["centers"].items()) {
      Power p = power_from_str(power);
      for (auto &c : centers) state.set_center(loc_from_str(c.get<std::string>()), p);
    }
  }
  if (in.contains("dislodged")) {
    for (auto &[power, list] : in["dislodged"].items()) {
      Power p = power_from_str(power);
      for (auto &d : list) {
        // as dipcc: no dislodger after a convoyed attack (the unit may retreat there)
        bool convoyed = d.contains("convoyed") && d["convoyed"].get<bool>();
        Loc from = convoyed ? Loc::NONE : loc_from_str(d.at("from").get<std::string>());
        state.add_dislodged_unit(owned_unit(p, d.at("unit").get<std::string>()), from);
      }
    }
  }
  if (in.contains("standoffs")) {
    for (auto &s : in["standoffs"]) state.add_contested_loc(loc_from_str(s.get<std::string>()));
  }
  std::unordered_map<Power, std::vector<Order>> orders;
  json errors = json::array();
  if (in.contains("orders")) {
    for (auto &[power, list] : in["orders"].items()) {
      Power p = power_from_str(power);
      for (auto &o : list) {
        try {
          orders[p].push_back(Order(dipcc_text(o.get<std::string>())));
        } catch (const std::exception &e) {
          errors.push_back(e.what());
        }
      }
    }
  }
  GameState next = state.process(orders);
  json out = next.to_json();
  out["id"] = in.contains("id") ? in["id"] : json();
  out["errors"] = errors;
  return out;
}

} // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    json out;
    try {
      out = answer(json::parse(line));
    } catch (const std::exception &e) {
      out = {{"errors", {e.what()}}};
    }
    std::cout << out.dump() << "\n";
    if (std::cin.rdbuf()->in_avail() == 0) std::cout.flush();
  }
  return 0;
}
