texas :- NP : texas:s
ohio :- NP : ohio:s
utah :- NP : utah:s
iowa :- NP : iowa:s
