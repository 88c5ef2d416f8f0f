# The settings: every variable a person may set (on the command line or in the environment), checked
# when the makefiles are read, before anything is expanded or any recipe runs. A value that is not what
# its name says stops make with one line and a non-zero exit; so does a command-line variable that is
# not a setting (a typo, BORD=, or one of the Makefile's own, BIN=). The recipes then read the settings
# from the environment ("$$BOARD", or $$SIM_ARGS unquoted for a list of options), never pasted into a
# shell line, so no value can end its quotes and run a command. The Makefile reads this file first.
# Their raw text ($(value ...)) is checked, so a value holding make syntax is never expanded; the
# Makefile's own defaults (origin "file") are not checked. host_tests/test_make_vars.py runs hostile
# values through every setting and every other variable the makefiles read.
_VAR_LOWER := a b c d e f g h i j k l m n o p q r s t u v w x y z
_VAR_UPPER := A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
_VAR_DIGIT := 0 1 2 3 4 5 6 7 8 9
_VAR_WORD  := $(_VAR_LOWER) $(_VAR_DIGIT) _
_VAR_PATH  := $(_VAR_WORD) $(_VAR_UPPER) / . : @ + -
# options for a tool (SIM_ARGS="--heap 180K --source"): split at spaces, no quotes
_VAR_OPTS  := $(_VAR_PATH) = ,
_VAR_EMPTY :=
_VAR_SPACE := $(_VAR_EMPTY) $(_VAR_EMPTY)
_VAR_TAB   := $(_VAR_EMPTY)	$(_VAR_EMPTY)
define _VAR_NL


endef
# the raw text, its newlines and tabs made visible (no allowed character list holds `?`)
_var_raw  = $(subst $(_VAR_TAB),?,$(subst $(_VAR_NL),?,$(value $(1))))
# what is left of $(1) once every character of the list $(2) is taken out
_var_rest = $(if $(2),$(call _var_rest,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,999,$(2))),$(1))
# set by the person (the command line, the environment), not by a makefile
_var_given = $(filter command% environment%,$(origin $(1)))
# $(call _var_one,NAME,allowed characters,what it must be): one word of those characters
_var_one = $(if $(call _var_given,$(1)),$(if $(or $(filter-out 0 1,$(words $(value $(1)))),\
  $(strip $(call _var_rest,$(call _var_raw,$(1)),$(2)))),$(error $(1)= must be $(3))))
# $(call _var_list,NAME,allowed characters,what it must be): words of those characters, spaces between
_var_list = $(if $(call _var_given,$(1)),$(if $(strip $(call _var_rest,$(subst $(_VAR_SPACE),,\
  $(call _var_raw,$(1))),$(2))),$(error $(1)= must be $(3))))
# $(call _var_choice,NAME,the values,what it must be)
_var_choice = $(if $(call _var_given,$(1)),$(if $(or $(filter-out 0 1,$(words $(value $(1)))),\
  $(filter-out $(2),$(call _var_raw,$(1)))),$(error $(1)= must be $(3))))

# The table: each setting, what it takes, and what the message says it must be.
$(call _var_one,BOARD,$(_VAR_WORD),a board name (a-z 0-9 _: waveshare_lcd13 pimoroni_pack ...))
$(call _var_one,PORT,$(_VAR_PATH),a device path (/dev/ttyACM0) or port name (letters digits / . _ : @ + -))
$(call _var_choice,CHIP,rp2040 rp2350,rp2040 or rp2350)
$(call _var_choice,FORCE,0 1,0 or 1)
$(call _var_one,SEED,$(_VAR_DIGIT),a number)
$(call _var_one,SIZE,$(_VAR_DIGIT) x,a size such as 240x135)
$(call _var_choice,VIEW,term window,term or window)
$(call _var_choice,ACTUAL,0 1,0 or 1)
$(call _var_one,DPI,$(_VAR_DIGIT) .,a number of pixels per inch (96 or 108.8))
$(call _var_list,KEYS,$(_VAR_PATH) *,a key script (words such as down a wait:500 right*2 shot:out/a.png))
$(call _var_one,SHOT,$(_VAR_PATH),a file name for the picture (letters digits / . _ : @ + -))
$(call _var_list,SIM_ARGS,$(_VAR_OPTS),python -m tools.sim options (letters digits / . _ : @ + - = , and spaces))
$(call _var_list,LINK_GAME,$(_VAR_WORD) $(_VAR_UPPER),variant players teams seats (fives 2 0 HG))
$(call _var_list,LINK_ARGS,$(_VAR_OPTS),python -m tools.link.sim_pair options (letters digits / . _ : @ + - = , and spaces))
$(call _var_one,WEB_PORT,$(_VAR_DIGIT),a port number (1-65535))
$(call _var_one,WEB_OUT,$(_VAR_PATH),a folder (letters digits / . _ : @ + -))
$(call _var_list,WEB_ARGS,$(_VAR_OPTS),python -m tools.web.build options (--source))
$(call _var_list,BENCH_ARGS,$(_VAR_OPTS),python -m tools.bench options (letters digits / . _ : @ + - = , and spaces))
$(call _var_one,MICROPYTHON,$(_VAR_PATH),the path of a micropython program (letters digits / . _ : @ + -))
$(call _var_one,PYTHON,$(_VAR_PATH),a Python 3 program (python3, /usr/bin/python3.11))
$(call _var_choice,IMAGE,pico pico_w,pico or pico_w)
$(call _var_one,RP2EMU,$(_VAR_PATH),a folder (letters digits / . _ : @ + -))
$(call _var_one,ARENA_MATCHES,$(_VAR_DIGIT),a number)
$(call _var_one,DOMINOES_MATCHES,$(_VAR_DIGIT),a number)
$(call _var_one,MONKEY_PRESSES,$(_VAR_DIGIT),a number)
$(call _var_one,SOAK_GAMES,$(_VAR_DIGIT),a number)
$(call _var_one,MONKEY_SEED,$(_VAR_WORD),a number or random)
$(call _var_list,MONKEY_ARGS,$(_VAR_OPTS),python -m tools.proofs.monkey options (letters digits / . _ : @ + - = , and spaces))
# make's own name, which the recipes run sub-makes with: the environment can replace it
$(call _var_one,MAKE,$(_VAR_PATH),the path of a make program (the environment's MAKE=))
$(call _var_one,MAKE_COMMAND,$(_VAR_PATH),the path of a make program (the environment's MAKE_COMMAND=))

_VAR_SETTINGS := BOARD PORT CHIP FORCE SEED SIZE VIEW ACTUAL DPI KEYS SHOT SIM_ARGS LINK_GAME LINK_ARGS \
  WEB_PORT WEB_OUT WEB_ARGS BENCH_ARGS MICROPYTHON PYTHON IMAGE RP2EMU ARENA_MATCHES DOMINOES_MATCHES \
  MONKEY_PRESSES SOAK_GAMES MONKEY_SEED MONKEY_ARGS
# A command-line variable that is no setting: a typo, or one of the makefiles' own (BIN=, DEPLOY=)
_var_other := $(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),\
  $(if $(filter $(v),$(_VAR_SETTINGS)),,$(v)))))
ifneq ($(_var_other),)
$(error $(firstword $(_var_other))= is not a setting of this Makefile (`make help`; the settings: \
  $(_VAR_SETTINGS)))
endif
# (exported by the Makefile once every makefile has given its defaults: `export NAME` on a name not
# yet set would set it, empty, and its `?=` default would then never apply)
