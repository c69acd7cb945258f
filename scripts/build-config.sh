# Sourced by scripts/start.sh and scripts/test.sh: the one configuration both
# quick-start commands build in build/, so that neither rebuilds what the other
# built (the server's objects are the same; test.sh adds the tests). Warnings
# are errors, as in every test build; a host on a compiler other than Debian
# bookworm's may set SPARTS_WERROR=OFF (then the next test.sh builds again).
release_flags=(-DCMAKE_BUILD_TYPE=Release -DSPARTS_HOT_OPTIONS= -DSPARTS_UNITY=OFF -DSPARTS_SANITIZE=OFF
               -DSPARTS_WERROR="${SPARTS_WERROR:-ON}")
