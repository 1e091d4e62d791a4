from mobadj.program import run

run()
