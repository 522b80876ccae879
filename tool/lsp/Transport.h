//===--- Transport.h - JSON-RPC messages over stdio -------------*- C++ -*-===//
//
// LSP's base protocol: each message is a header ("Content-Length: N", other
// fields ignored), an empty line, and N bytes of JSON. Messages are read on
// one thread and may be written from any; stderr is the server's log, which
// editors show as the server's output.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_TRANSPORT_H
#define TORCH_TIDY_TOOL_LSP_TRANSPORT_H

#include "llvm/ADT/Twine.h"
#include <nlohmann/json.hpp>
#include <cstdio>
#include <mutex>
#include <string>

namespace torch_tidy::lsp {

class Transport {
public:
  Transport(std::FILE *In, std::FILE *Out) : In(In), Out(Out) {}

  enum class Read {
    Message,   // Body holds the message's bytes
    Malformed, // a header without a usable Content-Length: Problem says why
    End,       // the input is closed
  };
  Read read(std::string &Body, std::string &Problem);

  /// Writes one message; safe to call from any thread.
  void send(const nlohmann::json &Message);

private:
  bool readLine(std::string &Line);

  std::FILE *In, *Out;
  std::mutex WriteLock;
};

/// One line on stderr, prefixed with the time since the server started.
void log(const llvm::Twine &Message);

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_TRANSPORT_H
