# AI: long arena runs (strength targets of issue 4), AI soak. The Hard AI speed bench (tools/bench_ai.py)
# is a section of `make bench` (mk/bench.mk).
#   make arena-long   the strength targets, 1,000 matches each, both cores, niced (~18 min here)
#   make soak-ai      many seeded rounds of every variant with every level: legal moves, no crash
ARENA_MATCHES ?= 1000
ARENA = nice $(BIN)/python tools/arena.py --jobs 2 --python $(MICROPYTHON) \
        --matches $(ARENA_MATCHES) --seed 1

.PHONY: arena-long soak-ai

SOAK_EXTRA += soak-ai

arena-long: $(STAMP)
	$(ARENA) --variant draw --players 2 --a hard --b greedy
	$(ARENA) --variant draw --players 2 --a hard --b medium
	$(ARENA) --variant draw --players 2 --a medium --b greedy
	$(ARENA) --variant draw --players 2 --a easy --b random
	$(ARENA) --variant fives --players 2 --a hard --b greedy
	$(ARENA) --variant goat --players 4 --teams --a hard --b medium
	$(ARENA) --variant block --players 2 --a hard --b greedy
	$(ARENA) --variant block --players 2 --a hard --b medium
	$(ARENA) --variant block --players 2 --a medium --b greedy
	$(ARENA) --variant block --players 2 --a easy --b random

AI_SOAK_CASES = draw:2 block:2 fives:2 classic:3 goat:2 goat:4:t sea_goat:3 donkey:2 donkey:4:t muggins:2 \
                threes:4 telephone:2 blitz:4 blitz:4:t fives:4:t block:4:t

soak-ai: $(STAMP)
	@for c in $(AI_SOAK_CASES); do \
	  v=$${c%%:*}; rest=$${c#*:}; p=$${rest%%:*}; t=$$(case $$c in *:t) echo --teams;; esac); \
	  for pair in "hard medium" "easy greedy" "medium random"; do set -- $$pair; \
	    nice $(MICROPYTHON) tools/arena.py --variant $$v --players $$p $$t --a $$1 --b $$2 --matches 40 \
	      --seed 7 --rollouts 40 --check || exit 1; \
	  done; \
	done
