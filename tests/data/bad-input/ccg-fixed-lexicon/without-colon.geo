texas :- NP texas:s
