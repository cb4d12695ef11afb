// The PTX section table: keys resolve to numbers and anchors, citations expand from keys.
#include "ptx/Sections.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace ptxmc::ptx;

TEST_CASE("sections: a key gives the number and anchor of its row", "[sections]") {
    CHECK(section(Sec::Membar).number == "9.7.15.4");
    CHECK(section(Sec::Membar).anchor ==
          "parallel-synchronization-and-communication-instructions-membar");
    CHECK(section(Sec::Tcgen05Commit).number == "9.7.18.12.1");
    CHECK(sectionsIsaVersion() == "9.4");
    CHECK(cite(Sec::StAsync) == "PTX ISA 9.7.10.12");
}

TEST_CASE("sections: citations expand {Key} and {Key#}, and refuse unknown keys", "[sections]") {
    CHECK(expandCitations("PTX ISA {BarBarrier}, {BarrierCluster}") ==
          "PTX ISA 9.7.15.1, 9.7.15.3");
    CHECK(expandCitations("PTX ISA {Scope#}; note") == "PTX ISA 8.5 #scope; note");
    CHECK(expandCitations("no keys") == "no keys");
    CHECK_THROWS_AS(expandCitations("PTX ISA {NoSuchSection}"), std::invalid_argument);
    CHECK_THROWS_AS(expandCitations("PTX ISA {Membar"), std::invalid_argument);
    // Every row has its anchor (a static_assert in Sections.cpp), so every key cites with one.
    CHECK(expandCitations("{Tcgen05Cp#}") == "9.7.18.9.2 #tcgen05-instructions-tcgen05-cp");
    CHECK(expandCitations("{BarBarrier#}") ==
          "9.7.15.1 #parallel-synchronization-and-communication-instructions-bar");
}

TEST_CASE("sections: synchronising instructions cite their section", "[sections]") {
    Insn wait{Tcgen05Wait{}, {}, {}, "tcgen05.wait::ld"};
    CHECK(citation(sectionOf(wait)) == "PTX ISA 9.7.18.8.5 #tcgen05-instructions-tcgen05-wait");
    Ld acquire;
    acquire.sem = Sem::Acquire;
    Insn ld{acquire, {}, {}, "ld.acquire"};
    CHECK(citation(sectionOf(ld)) == "PTX ISA 8.8 #release-acquire-patterns");
    Insn mov{Mov{}, {}, {}, "mov"};
    CHECK(citation(sectionOf(mov)).empty());
}
