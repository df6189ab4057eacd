texas :- NP\ : texas:s
