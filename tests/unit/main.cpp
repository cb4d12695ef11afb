// Catch2 entry point shared by the unit-test executables, on huge pages as ptxmc runs.
#define CATCH_CONFIG_RUNNER
#include "cli/HugePages.hpp"

#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    // The corpus-wide test cases build an encoding per corpus test, as `ptxmc check` does.
    ptxmc::cli::restartWithHugePages(argv);
    return Catch::Session().run(argc, argv);
}
