// Lookup into the base vocabulary (Vocabulary.def): which names a cat model may use as given.
#pragma once

#include <string>
#include <vector>

namespace ptxmc::ir {

struct BaseName {
    std::string name;
    bool isSet = false;
    bool choice = false; ///< chosen by the solver (relations only)
    std::string doc;
    std::string source; ///< PTX ISA citation with {Key} section keys (ptx::expandCitations)
};

/** Every base set and relation, in Vocabulary.def order. */
const std::vector<BaseName>& baseVocabulary();

/** The entry for `name`, or nullptr when the name is not a base name. */
const BaseName* findBaseName(const std::string& name);

} // namespace ptxmc::ir
