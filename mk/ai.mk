# AI: long arena runs (the strength targets), AI soak. The Hard AI speed bench
# (tools/bench/ai_speed.py, on the emulated Pico) is a section of `make bench` (mk/bench.mk).
#   make arena-long   the strength targets at the device-equivalent budget (rollouts per move, the
#                     emulated Pico's figure at 0.5 s: docs/AI.md), 1,000 matches per pairing and
#                     >= 600 hands against each PyPI dominoes player; both cores, niced (~30 min here).
#                     Every figure with its interval, budget and seed; fails when a goal is missed.
#   make soak-ai      many seeded rounds of every variant with every level: legal moves, no crash
ARENA_MATCHES ?= 1000
# series against the dominoes library (4.2-4.6 hands each: 140 gave 594 against `double`, seed 1):
# 160 give >= 600 hands
DOMINOES_MATCHES ?= 160
ARENA = nice $(BIN)/python -m tools.arena --jobs 2 --python $(MP_BIN) --seed 1
# pairing : goal (% of matches won by A; against the dominoes players: % of hands won)
ARENA_GOALS = draw:2:hard:greedy:92 draw:2:hard:medium:70 draw:2:medium:greedy:70 draw:2:easy:random:55 \
              fives:2:hard:greedy:70 goat:4t:hard:medium:60 block:2:hard:greedy:90 block:2:hard:medium:65 \
              block:2:medium:greedy:70 block:2:easy:random:55 \
              block:4t:hard:dominoes.double:60 block:4t:hard:dominoes.bota_gorda:60

.PHONY: arena-long soak-ai

SOAK_EXTRA += soak-ai

arena-long: $(STAMP)
	@failed=""; for c in $(ARENA_GOALS); do \
	  set -- $$(echo $$c | tr : ' '); t=$$(case $$2 in *t) echo --teams;; esac); \
	  n=$$(case $$4 in dominoes.*) echo "$$DOMINOES_MATCHES";; *) echo "$$ARENA_MATCHES";; esac); \
	  echo "== $$1 $$2: $$3 vs $$4"; \
	  $(ARENA) --variant $$1 --players $${2%t} $$t --a $$3 --b $$4 --matches $$n --goal $$5 || failed="$$failed $$c"; \
	done; \
	if [ -n "$$failed" ]; then echo "arena-long: goals missed:$$failed"; exit 1; fi; echo "arena-long: every goal met"

AI_SOAK_CASES = draw:2 block:2 fives:2 classic:3 goat:2 goat:4:t sea_goat:3 donkey:2 donkey:4:t muggins:2 \
                threes:4 telephone:2 blitz:4 blitz:4:t fives:4:t block:4:t

soak-ai: $(STAMP)
	@for c in $(AI_SOAK_CASES); do \
	  v=$${c%%:*}; rest=$${c#*:}; p=$${rest%%:*}; t=$$(case $$c in *:t) echo --teams;; esac); \
	  for pair in "hard medium" "easy greedy" "medium random"; do set -- $$pair; \
	    nice $(MP_RUN) -m tools.arena --variant $$v --players $$p $$t --a $$1 --b $$2 --matches 40 \
	      --seed 7 --rollouts 40 --check || exit 1; \
	  done; \
	done
