import sys

from bench.learning import main

sys.exit(main())
