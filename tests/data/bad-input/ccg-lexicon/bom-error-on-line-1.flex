entry 0.5 texas :- texas:s
