from mobadj.cli import run

run()
