//===--- Transport.cpp - JSON-RPC messages over stdio ---------------------===//

#include "Transport.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>

namespace torch_tidy::lsp {

/// Larger messages are refused (their bytes skipped): a 64 MiB source file
/// is beyond anything the analysis could parse in an editor's time.
static constexpr size_t MaxMessageBytes = 64u << 20;

bool Transport::readLine(std::string &Line) {
  Line.clear();
  for (int C; (C = std::fgetc(In)) != EOF;) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return true;
    }
    Line.push_back(static_cast<char>(C));
  }
  return false;
}

Transport::Read Transport::read(std::string &Body, std::string &Problem) {
  std::string Line;
  std::optional<size_t> Length;
  bool SawHeader = false;
  while (true) {
    if (!readLine(Line))
      return Read::End;
    if (Line.empty()) {
      if (SawHeader)
        break;
      continue; // blank lines between messages
    }
    SawHeader = true;
    auto [Name, Value] = llvm::StringRef(Line).split(':');
    if (!Name.trim().equals_insensitive("Content-Length"))
      continue;
    unsigned long long Parsed;
    if (Value.trim().getAsInteger(10, Parsed)) {
      Problem = "invalid Content-Length '" + Value.trim().str() + "'";
      Length.reset();
      continue;
    }
    Length = Parsed;
    Problem.clear();
  }
  if (!Length) {
    if (Problem.empty())
      Problem = "a message header without Content-Length";
    return Read::Malformed;
  }
  if (*Length > MaxMessageBytes) {
    for (size_t I = 0; I < *Length && std::fgetc(In) != EOF; ++I)
      ;
    Problem = "a message of " + std::to_string(*Length) +
              " bytes, above the limit of " + std::to_string(MaxMessageBytes);
    return Read::Malformed;
  }
  Body.resize(*Length);
  size_t Got = *Length ? std::fread(&Body[0], 1, *Length, In) : 0;
  if (Got != *Length)
    return Read::End;
  return Read::Message;
}

void Transport::send(const nlohmann::json &Message) {
  // Invalid UTF-8 (a file name, a source line) is replaced, never thrown on.
  std::string Body =
      Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> Guard(WriteLock);
  std::fprintf(Out, "Content-Length: %zu\r\n\r\n", Body.size());
  std::fwrite(Body.data(), 1, Body.size(), Out);
  std::fflush(Out);
}

void log(const llvm::Twine &Message) {
  static const auto Start = std::chrono::steady_clock::now();
  static std::mutex Lock;
  double Seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
  std::lock_guard<std::mutex> Guard(Lock);
  llvm::errs() << "[torch-tidy " << llvm::format("%8.3f", Seconds) << "] "
               << Message << "\n";
  llvm::errs().flush();
}

} // namespace torch_tidy::lsp
