// Unit tests of when ptxmc restarts with glibc's huge-page tunable, and with what.
#include "cli/HugePages.hpp"

#include <catch2/catch.hpp>

using ptxmc::cli::hugePageTunables;
using ptxmc::cli::MallocEnvironment;

namespace {
MallocEnvironment onRequest() {
    MallocEnvironment env;
    env.thpEnabled = "always [madvise] never\n";
    env.glibcVersion = "2.36";
    return env;
}
} // namespace

TEST_CASE("huge pages: asked for where the kernel gives them on request", "[cli][hugepages]") {
    CHECK(hugePageTunables(onRequest()) == "glibc.malloc.hugetlb=1");
    auto env = onRequest();
    env.glibcTunables = "";
    CHECK(hugePageTunables(env) == "glibc.malloc.hugetlb=1");
    env.glibcTunables = "glibc.malloc.arena_max=2";
    CHECK(hugePageTunables(env) == "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
    env.glibcVersion = "2.35";
    CHECK(hugePageTunables(env).has_value());
    env.glibcVersion = "3.0";
    CHECK(hugePageTunables(env).has_value());
}

TEST_CASE("huge pages: no restart where it would change nothing or undo a choice",
          "[cli][hugepages]") {
    auto env = onRequest();
    env.thpEnabled = "[always] madvise never\n"; // given without asking
    CHECK_FALSE(hugePageTunables(env));
    env.thpEnabled = "always madvise [never]\n";
    CHECK_FALSE(hugePageTunables(env));
    env.thpEnabled = ""; // no /sys entry: no transparent huge pages
    CHECK_FALSE(hugePageTunables(env));

    env = onRequest();
    env.glibcVersion = "2.34"; // before the tunable
    CHECK_FALSE(hugePageTunables(env));
    env.glibcVersion = ""; // not glibc
    CHECK_FALSE(hugePageTunables(env));

    env = onRequest();
    env.preloaded = true; // valgrind, or another allocator
    CHECK_FALSE(hugePageTunables(env));

    env = onRequest();
    env.glibcTunables = "glibc.malloc.hugetlb=0"; // the user's choice
    CHECK_FALSE(hugePageTunables(env));
    env.glibcTunables = "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"; // the restart's own
    CHECK_FALSE(hugePageTunables(env));
}
