import subprocess
import sys


def test_the_rules_core_imports_no_django() -> None:
    code = (
        "import sys, tables.game.bets, tables.game.dealing, tables.game.shoe, tables.game.validation;"
        "sys.exit('django' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
