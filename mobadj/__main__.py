from mobadj.cli import main

main()
