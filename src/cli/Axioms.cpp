// Axiom deletion: weakened models built from the parsed model, one axiom removed at a time.
#include "cli/Axioms.hpp"

#include "cat/Resolver.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/ModelArg.hpp"
#include "engine/Check.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <iostream>
#include <map>

namespace ptxmc::cli {

namespace {

struct AxiomsArgs {
    std::string modelFile;
    engine::EngineKind engine = engine::EngineKind::Z3; ///< the default of every subcommand
    std::vector<std::string> implied; ///< axioms claimed to follow from the others
    std::vector<std::string> paths;
};

/** A test's answer reduced to what deleting an axiom can change. */
std::string fingerprint(const report::CheckResult& r) {
    std::string s = report::toString(r.observation);
    for (const auto& st : r.states) {
        s += " [";
        for (auto v : st.values)
            s += std::to_string(v) + ",";
        s += "]";
    }
    for (const auto& f : r.flags)
        s += " " + f.name;
    return s;
}

/** The corpus, lowered once: every weakened model checks the same programs. */
using Programs = std::vector<std::pair<std::string, ir::Program>>;

std::map<std::string, std::string> runAll(const Programs& programs, const cat::ResolvedModel& model,
                                          engine::EngineKind engine) {
    std::map<std::string, std::string> out;
    engine::CheckOptions options;
    options.engine = engine;
    for (const auto& [file, program] : programs)
        out[file] = fingerprint(engine::check(program, model, options));
    return out;
}

int runAxioms(const AxiomsArgs& args) {
    auto model = loadModelArg(args.modelFile);
    Inputs inputs = expandInputs(args.paths);
    for (const auto& e : inputs.errors)
        std::cerr << e << '\n';
    if (!inputs.errors.empty()) return 2;
    Programs tests;
    for (const auto& path : inputs.tests) {
        litmus::Test test = litmus::parseLitmusFile(path);
        tests.emplace_back(test.file, lower::lowerTest(test));
    }
    auto full = runAll(tests, *model, args.engine);
    int useless = 0, wrongClaims = 0;
    for (const auto& name : args.implied)
        if (std::none_of(model->axioms.begin(), model->axioms.end(),
                         [&](const cat::Axiom& a) { return !a.flag && a.name == name; }))
            throw InputError(SourceLoc{},
                             "--implied names '" + name + "', which is not an axiom of the model");
    for (const auto& axiom : model->axioms) {
        if (axiom.flag) continue;
        bool claimedImplied =
            std::find(args.implied.begin(), args.implied.end(), axiom.name) != args.implied.end();
        cat::ResolvedModel weaker = *model;
        std::erase_if(weaker.axioms, [&](const cat::Axiom& a) { return a.name == axiom.name; });
        auto answers = runAll(tests, weaker, args.engine);
        std::vector<std::string> changed;
        for (const auto& [file, answer] : answers)
            if (answer != full.at(file)) changed.push_back(file);
        std::cout << axiom.name << (claimedImplied ? " (claimed implied)" : "") << ": "
                  << changed.size() << " test(s) change without it";
        if (!changed.empty()) std::cout << ", e.g. " << changed.front();
        std::cout << '\n';
        if (changed.empty() && !claimedImplied) ++useless;
        if (!changed.empty() && claimedImplied) ++wrongClaims;
    }
    if (useless > 0)
        std::cerr << "ptxmc: " << useless
                  << " axiom(s) change no verdict of these tests: add a "
                     "test that needs them, or remove them\n";
    if (wrongClaims > 0)
        std::cerr << "ptxmc: " << wrongClaims << " axiom(s) claimed implied change a verdict\n";
    return useless + wrongClaims > 0 ? 1 : 0;
}

} // namespace

void setupAxioms(CLI::App& app) {
    auto args = std::make_shared<AxiomsArgs>();
    CLI::App* sub = app.add_subcommand(
        "axioms",
        "Check that deleting any one named axiom of the model changes some test's answer");
    addModelOption(*sub, args->modelFile);
    addEngineOption(*sub, args->engine, {engine::EngineKind::Z3, engine::EngineKind::Enumerate},
                    "z3 (default, as in every subcommand) or enumerate (the explicit engine)");
    sub->add_option("--implied", args->implied,
                    "an axiom claimed to follow from the others: it must change NO answer "
                    "(repeat the option for several)")
        ->expected(1) // one name per --implied, so a PATH after it is never taken for one
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->option_text("AXIOM");
    sub->add_option("PATH", args->paths, "test files, folders or @index files")->required();
    sub->footer("Example:\n  ptxmc axioms litmus/    every axiom of the default model must matter");
    sub->callback([args]() {
        int status = runAxioms(*args);
        if (status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
