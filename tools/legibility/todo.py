"""What the legibility rule (tools/legibility/report.py) still finds broken, board by board and
screen by screen, and the screens the recorded key path (record.py) must reach. host_tests/
test_legibility.py fails when a screen breaks a rule not listed here, when a listed one is fixed
(remove it), and when a screen of SCREENS was not reached."""

# {board: {screen: (rules it breaks: "text" capitals, "pip_hand", "pip_ends", "pip_table", "gap_*",
# "fit")}}: empty, every screen meets the rule on every board
STILL_TO_CONVERT = {}

# Screens the rule must cover that the recorded key path does not reach yet: none
NOT_YET_RECORDED = ()

# Every screen record.py drives through (the table by the game it shows)
SCREENS = ("AskLang", "MainMenu", "Settings", "Stats", "HelpList", "HelpPage", "NewGame", "CodeEditor",
           "Names", "NameEditor", "SafeStart", "Table", "Pause", "MoveLog", "SheetView", "RoundEnd",
           "Curtain", "Table 2v2", "Table pass-and-play", "Table Blitz")
