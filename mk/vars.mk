# The variables a person types on the command line (BOARD=, CHIP=, PORT=, the simulator's), checked
# when the makefiles are read, before any recipe: a value that is not what its name says stops make
# with one line and a non-zero exit. The recipes then read them from the environment ("$$BOARD"),
# never pasted into a shell line, so no value can end its quotes and run a command.
#   BOARD  a board module's name: a-z, 0-9, _            CHIP  rp2040 or rp2350
#   PORT   a device path or an mpremote port name (letters, digits, / . _ : @ + -)
#   SIZE   WxH    SEED  digits    VIEW  term or window    IMAGE  pico or pico_w (the emulated Pico)    ACTUAL  0 or 1    DPI  a number (110, 108.8)
# Their raw text ($(value ...)) is checked: a value holding make syntax is never expanded.
_VAR_WORD  := a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 _
_VAR_PATH  := $(_VAR_WORD) A B C D E F G H I J K L M N O P Q R S T U V W X Y Z / . : @ + -
_VAR_DIGIT := 0 1 2 3 4 5 6 7 8 9
# what is left of $(1) once every character of the list $(2) is taken out
_var_rest = $(if $(2),$(call _var_rest,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,999,$(2))),$(1))
# $(call _var_check,NAME,allowed characters,what it must be)
_var_check = $(if $(or $(filter-out 0 1,$(words $(value $(1)))),$(strip $(call _var_rest,$(value $(1)),$(2)))),\
  $(error $(1)= must be $(3)))

ifneq ($(value BOARD),)
$(call _var_check,BOARD,$(_VAR_WORD),a board name (a-z 0-9 _: waveshare_lcd13 pimoroni_pack ...))
endif
ifneq ($(value PORT),)
$(call _var_check,PORT,$(_VAR_PATH),a device path (/dev/ttyACM0) or port name (letters digits / . _ : @ + -))
endif
ifneq ($(value SEED),)
$(call _var_check,SEED,$(_VAR_DIGIT),a number)
endif
ifneq ($(value SIZE),)
$(call _var_check,SIZE,$(_VAR_DIGIT) x,a size such as 240x135)
endif
ifneq ($(value DPI),)
$(call _var_check,DPI,$(_VAR_DIGIT) .,a number of pixels per inch (96 or 108.8))
endif
ifneq ($(filter-out rp2040 rp2350,$(value CHIP)),)
$(error CHIP= must be rp2040 or rp2350)
endif
ifneq ($(filter-out term window,$(value VIEW)),)
$(error VIEW= must be term or window)
endif
ifneq ($(filter-out 0 1,$(value ACTUAL)),)
$(error ACTUAL= must be 0 or 1)
endif
ifneq ($(filter-out pico pico_w,$(value IMAGE)),)
$(error IMAGE= must be pico or pico_w)
endif
ifneq ($(filter-out 0 1,$(words $(value CHIP)) $(words $(value VIEW)) $(words $(value ACTUAL)) $(words $(value IMAGE))),)
$(error CHIP=, VIEW=, ACTUAL= and IMAGE= take one value)
endif
export BOARD PORT CHIP SIZE SEED VIEW ACTUAL DPI IMAGE KEYS SHOT
