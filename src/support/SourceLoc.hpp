// Source positions and the one error type every front end throws: "file:line:col: message".
#pragma once

#include <stdexcept>
#include <string>

namespace ptxmc {

/** A position in an input file; line and col are 1-based, 0 means unknown. */
struct SourceLoc {
    std::string file;
    int line = 0;
    int col = 0;

    std::string str() const {
        std::string s = file.empty() ? std::string("<input>") : file;
        if (line > 0) {
            s += ':';
            s += std::to_string(line);
            s += ':';
            s += std::to_string(col);
        }
        return s;
    }
};

/** Bad input (litmus, model, options): reported as "file:line:col: error: message", exit 2. */
class InputError : public std::runtime_error {
public:
    InputError(SourceLoc loc, const std::string& message)
        : std::runtime_error(loc.str() + ": error: " + message), loc_(std::move(loc)),
          message_(message) {}
    const SourceLoc& loc() const { return loc_; }
    const std::string& message() const { return message_; }

private:
    SourceLoc loc_;
    std::string message_;
};

} // namespace ptxmc
