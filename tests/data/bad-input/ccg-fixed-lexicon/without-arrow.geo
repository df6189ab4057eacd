texas NP : texas:s
