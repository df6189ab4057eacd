:- NP : texas:s
