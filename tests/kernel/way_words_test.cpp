// A witness note on the ways of branches on data, said in the kernel's terms.
#include "kernel/Extract.hpp"

#include <catch2/catch.hpp>

using ptxmc::kernel::wayWords;

TEST_CASE("way words: a choice of the extracted program is its branch's guard", "[way-words]") {
    CHECK(wayWords("where nondet.pred way_l56_0 (k.ptx:56:8) is 0") ==
          "where the guard at line 56 fails");
    CHECK(wayWords("where nondet.pred way_l56_1 (k.ptx:56:8) is 1 and nondet.pred way_l90_0 "
                   "(k.ptx:90:3) is 0") ==
          "where the guard at line 56 holds (its run 2) and the guard at line 90 fails");
}

TEST_CASE("way words: other notes are kept", "[way-words]") {
    CHECK(wayWords("only jointly") == "only jointly");
    CHECK(wayWords("where nondet.pred p (t.litmus:9:2) is 1") ==
          "where nondet.pred p (t.litmus:9:2) is 1");
    CHECK(wayWords("nondet.pred way_l7_0 (cut") == "nondet.pred way_l7_0 (cut");
}
