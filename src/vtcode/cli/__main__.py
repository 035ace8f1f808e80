"""`python -m vtcode.cli`."""

import sys

from vtcode.cli.main import main

sys.exit(main())
