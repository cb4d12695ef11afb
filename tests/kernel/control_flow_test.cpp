// An entry's control flow: branch targets through { } blocks, successors, post-dominators.
#include "../unit/RequireInputError.hpp"
#include "EntryText.hpp"
#include "kernel/ControlFlow.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

TEST_CASE("control flow: targets, successors and where two ways meet", "[control-flow]") {
    // 0 setp, 1 @p bra L1, 2 add, 3 bra L2, 4 L1:, 5 sub, 6 L2:, 7 { 7 L1: (inner), 8 bra L1 }
    const Module m = testing::entryModule("\tsetp.eq.u32 %p1, %r1, 0;\n"
                                          "\t@%p1 bra L1;\n"
                                          "\tadd.u32 %r2, %r2, 1;\n"
                                          "\tbra L2;\n"
                                          "L1:\n"
                                          "\tsub.u32 %r2, %r2, 1;\n"
                                          "L2:\n"
                                          "\t{\n"
                                          "L1:\n"
                                          "\t@%p1 bra L1;\n"
                                          "\t}\n"
                                          "\t@%p2 exit;\n"
                                          "\tret;\n");
    const Function& f = m.functions.at(0);
    REQUIRE(f.body.size() == 11);
    CHECK(branchTarget(f, f.body[1]) == 4);
    CHECK(branchTarget(f, f.body[3]) == 6);
    CHECK(branchTarget(f, f.body[8]) == 7); // the inner block's L1
    CHECK(successors(f, 1) == std::vector<std::size_t>{4, 2});
    CHECK(successors(f, 3) == std::vector<std::size_t>{6});
    CHECK(successors(f, 9) == std::vector<std::size_t>{11, 10}); // guarded exit: end or on
    CHECK(successors(f, 10) == std::vector<std::size_t>{11});
    std::vector<std::size_t> ipdom = postDominators(f);
    CHECK(ipdom[1] == 6); // the two ways of the branch meet at L2
    CHECK(ipdom[8] == 9);
    CHECK(ipdom[10] == 11);
}

TEST_CASE("control flow: a label no block holds is an error at the operand", "[control-flow]") {
    const Module m = testing::entryModule("\tbra Nowhere;\n\tret;\n");
    const Function& f = m.functions.at(0);
    testing::requireInputError([&] { branchTarget(f, f.body[0]); }, "", "k.ptx", 14, 6,
                               "no label 'Nowhere' in scope");
    CHECK(successors(f, 0) == std::vector<std::size_t>{2}); // reported when a thread runs it
}
