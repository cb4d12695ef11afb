// Checks every generated cell under the model, then writes the tables, the tests, the seed check.
#include "cli/Matrix.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/ModelArg.hpp"
#include "cli/Parallel.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "engine/StaticRelations.hpp"
#include "matrix/Report.hpp"
#include "matrix/SeedCheck.hpp"
#include "report/Answer.hpp"
#include "support/SourceLoc.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

namespace ptxmc::cli {

namespace fs = std::filesystem;
using namespace ptxmc::matrix;

namespace {

const char* const kMatrixExamples = R"(Examples:
  ptxmc matrix --out-dir docs            regenerate docs/reordering.md, docs/seed-guide-check.md
                                         and the tests under docs/matrix/ (run from the source
                                         tree: the seed check reads litmus/)
  ptxmc matrix -o table.html --format html --model variants/q4-kind-not-required.cat
  ptxmc matrix --format json             every cell as JSON on stdout

With --out-dir, DIR/matrix/tests and DIR/matrix/syntax belong to the generator: it deletes
the .litmus files there that it did not write. Exit status: 0 every cell has a verdict,
1 some check failed, 2 an input error (bad model, unwritable output).
No --unroll: the cells and the seed guide's claims have no loops.)";

struct MatrixArgs {
    PipelineOptions pipeline; ///< --model, --reading, --timeout, limits, --engine (no loops)
    std::string format = "md";
    std::string output;
    std::string outDir;
    std::string corpus = "litmus";
    unsigned jobs = 0;
};

/** The verdicts other readings give, where they differ from the default one's. */
void readingVerdicts(CellResult& r, const engine::CheckResult& res) {
    r.readingsChecked = true;
    for (const engine::ReadingResult& v : *res.readings) {
        Verdict other = verdictOf(engine::toString(v.observation));
        if (other != r.verdict) r.readings.push_back({v.reading, other, v.decisions});
    }
}

/** With `readings` (the built-in model with its variants folded in), under every reading. */
CellResult checkCell(const Cell& c, const cat::ResolvedModel& model,
                     const PipelineOptions& pipeline, bool readings) {
    CellResult r;
    if (!c.test) return r;
    try {
        engine::CheckOptions options = checkOptionsOf(pipeline);
        options.startedAt = engine::Clock::now();
        litmus::Test test = readTestText(c.test->text(), c.id + ".litmus");
        engine::CheckResult res = checkProgram(lowerTest(test, pipeline), model, options, readings);
        r.observation = engine::toString(res.observation);
        r.verdict = verdictOf(r.observation);
        r.flags = report::flagNames(res.flags);
        r.states = res.states.size();
        if (r.verdict == Verdict::Error) r.error = "observation " + r.observation;
        if (res.readings) readingVerdicts(r, res);
    } catch (const std::exception& e) {
        r.verdict = Verdict::Error;
        r.error = e.what();
    }
    return r;
}

std::string observe(const std::string& path, const cat::ResolvedModel& model,
                    const PipelineOptions& pipeline) {
    try {
        engine::CheckOptions options = checkOptionsOf(pipeline);
        options.startedAt = engine::Clock::now();
        const ir::Program program = lowerTest(readTest(path), pipeline);
        return engine::toString(checkProgram(program, model, options).observation);
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out)
        throw InputError(SourceLoc{path.generic_string(), 0, 0},
                         "cannot write this file (-o/--output, --out-dir)");
}

// The generator owns these folders: old tests that no cell produces any more must go.
void resetFolder(const fs::path& dir) {
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".litmus" || e.path().filename() == "expected.txt")
            fs::remove(e.path());
}

std::string render(const Document& doc, const std::string& format) {
    return format == "html" ? renderHtml(doc) : renderMarkdown(doc);
}

void writeOutDir(const MatrixArgs& args, const MatrixRun& run, const cat::ResolvedModel& model) {
    fs::path dir(args.outDir);
    fs::path tests = dir / "matrix" / "tests", syntax = dir / "matrix" / "syntax";
    resetFolder(tests);
    resetFolder(syntax);
    for (const Cell& c : run.cells)
        if (c.test) writeFile(tests / (c.id + ".litmus"), c.test->text());
    writeFile(tests / "expected.txt", matrixExpectations(run));
    std::string ext = args.format == "json" ? "json" : args.format;
    writeFile(dir / ("reordering." + ext),
              args.format == "json" ? matrixJson(run) : render(matrixDocument(run), args.format));

    SeedRun seed;
    seed.matrix = &run;
    for (const BehaviourClaim& c : behaviourClaims())
        seed.observations.push_back(
            observe((fs::path(args.corpus) / c.test).string(), model, args.pipeline));
    for (const SyntaxClaim& c : syntaxClaims()) {
        writeFile(syntax / (c.test.name + ".litmus"), c.test.text());
        writeFile(syntax / (c.fixed.name + ".litmus"), c.fixed.text());
    }
    std::string seedFormat = args.format == "html" ? "html" : "md";
    writeFile(dir / ("seed-guide-check." + seedFormat),
              render(seedCheckDocument(seed), seedFormat));
}

int runMatrix(const MatrixArgs& args) {
    auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const cat::ResolvedModel> model;
    const std::string modelArg = modelArgOf(args.pipeline);
    try {
        // The built-in model comes with its readings, so the tables can mark what rests on one.
        model = modelArg.empty() ? modelWithReadings() : loadModel(args.pipeline);
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    MatrixRun run;
    run.model = modelDisplayName(modelArg);
    run.readings = modelArg.empty();
    // The cells take the pipelined pairs and commit tracking from the model checked here.
    const cat::ResolvedModel& m = *model;
    try {
        run.cells = allCells([&m](const ir::Program& p, const std::string& name) {
            return engine::staticRelation(p, m, name);
        });
    } catch (const std::invalid_argument& e) {
        // A model without P1..P13, pipelined or commit-tracks cannot drive the tables.
        std::cerr << "ptxmc matrix: " << run.model << ": " << e.what() << '\n';
        return 2;
    }
    run.results.resize(run.cells.size());
    unsigned jobs = args.jobs ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
    runInOrder(
        run.cells.size(), jobs,
        [&](std::size_t i) {
            run.results[i] = checkCell(run.cells[i], *model, args.pipeline, run.readings);
        },
        [](std::size_t) {});

    try {
        if (!args.outDir.empty()) {
            writeOutDir(args, run, *model);
        } else {
            run.testsLink.clear(); // no tests are written next to the tables: link none
            std::string text =
                args.format == "json" ? matrixJson(run) : render(matrixDocument(run), args.format);
            if (args.output.empty())
                std::cout << text;
            else
                writeFile(args.output, text);
        }
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    } catch (const fs::filesystem_error& e) {
        std::cerr << "ptxmc matrix: " << e.what() << '\n';
        return 2;
    }

    std::size_t tests = 0, ordered = 0, reorder = 0, errors = 0, differ = 0;
    for (std::size_t i = 0; i < run.cells.size(); ++i) {
        const CellResult& r = run.results[i];
        if (!run.cells[i].test) continue;
        ++tests;
        ordered += r.verdict == Verdict::Ordered;
        reorder += r.verdict == Verdict::MayReorder;
        differ += r.verdict != run.cells[i].textReading;
        if (r.verdict == Verdict::Error) {
            ++errors;
            std::cerr << run.cells[i].id << ": " << r.error << '\n';
        }
    }
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::cerr << "ptxmc matrix: " << run.cells.size() << " cells, " << tests
              << " tests: " << ordered << " ordered, " << reorder << " may reorder, " << errors
              << " errors; " << differ << " differ from the literal reading (" << took.count()
              << " s)\n";
    return errors > 0 ? 1 : 0;
}

} // namespace

void setupMatrix(CLI::App& app) {
    auto args = std::make_shared<MatrixArgs>();
    CLI::App* sub = app.add_subcommand(
        "matrix", "Generate the tcgen05 reordering tables from the model by checking tests");
    PipelineHelp help;
    // The cells and the seed guide's claims are straight-line code: nothing to unroll.
    help.options = kAllPipelineOptions & ~kUnrollOption;
    help.timeout = "wall-clock limit per cell's test; a cell that hits it has no verdict (an "
                   "error)";
    addPipelineOptions(*sub, args->pipeline, help);
    // `markdown` as in every other subcommand; `md` (the file extension) kept
    sub->add_option("--format", args->format, "markdown (or md, the default), html or json")
        ->check(CLI::IsMember({"markdown", "md", "html", "json"}))
        ->transform([](const std::string& f) { return f == "markdown" ? std::string("md") : f; })
        ->option_text("FORMAT");
    addOutputOption(*sub, args->output, "the tables");
    sub->add_option("--out-dir", args->outDir,
                    "write DIR/reordering.*, DIR/seed-guide-check.* and the tests under "
                    "DIR/matrix/ (links assume DIR is docs/ of the source tree)")
        ->option_text("DIR");
    sub->add_option("--corpus", args->corpus,
                    "the litmus corpus the seed check reads (default: litmus)")
        ->option_text("DIR");
    addJobsOption(*sub, args->jobs, "tests checked at a time (default: one per core)");
    sub->footer(kMatrixExamples);
    sub->callback([args] {
        if (!args->output.empty() && !args->outDir.empty())
            throw CLI::ValidationError("-o", "give -o FILE or --out-dir DIR, not both");
        if (int status = runMatrix(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli
