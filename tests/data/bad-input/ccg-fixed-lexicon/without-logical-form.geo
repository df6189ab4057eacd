texas :- NP :
