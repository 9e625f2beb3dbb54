#pragma once

// SerialFetch: the list pages' refresh rule — one fetch at a time, and the latest request wins.
// A request while a fetch is under way is remembered (however many arrive, one more fetch
// follows), and the answer under way is then dropped: it may predate the change that asked
// again (a topic created, a group deleted, another cluster chosen). cancel() — the connection
// went away — drops whatever is under way or asked for. GUI thread only; the answers arrive there
// through ClusterConnection::run.
//
//   void Page::fetch()
//   {
//       if (fetch_.request())                   // false: one is under way, another will follow
//           startFetch();
//   }
//   void Page::startFetch()
//   {
//       const SerialFetch::Ticket ticket = fetch_.begin();
//       connection_.run(this, work, [this, ticket](Answer answer) {
//           switch (fetch_.finish(ticket)) {
//           case SerialFetch::Outcome::Stale: return;             // cancelled meanwhile
//           case SerialFetch::Outcome::FetchAgain: fetch(); return; // asked again meanwhile
//           case SerialFetch::Outcome::Use: break;
//           }
//           show(answer);
//       });
//   }
//
// Follow-up passes that belong to one answer (a column filled in by a second request) keep
// latest() and drop their own answer unless isLatest() still holds for it.

#include <cstdint>

namespace mqdesk::ui {

class SerialFetch
{
public:
    using Ticket = uint64_t;
    enum class Outcome {
        Use,        // the answer to the latest request: show it
        FetchAgain, // a request came while it was under way: drop it and fetch again
        Stale,      // cancelled, or not the fetch under way: ignore it
    };

    // A fetch is wanted. True when none is under way (the caller begins one now); false when one
    // is, in which case its finish() says FetchAgain.
    bool request()
    {
        if (!inFlight_)
            return true;
        again_ = true;
        return false;
    }

    // A fetch starts; its answer must be handed to finish() with this ticket.
    Ticket begin()
    {
        inFlight_ = true;
        again_ = false;
        return ++latest_;
    }

    // The fetch `ticket` was answered.
    Outcome finish(Ticket ticket)
    {
        if (ticket != latest_ || !inFlight_)
            return Outcome::Stale;
        inFlight_ = false;
        if (again_) {
            again_ = false;
            return Outcome::FetchAgain;
        }
        return Outcome::Use;
    }

    // Whatever is under way or asked for is of no use any more.
    void cancel()
    {
        ++latest_;
        inFlight_ = false;
        again_ = false;
    }

    bool busy() const { return inFlight_; }
    Ticket latest() const { return latest_; }
    bool isLatest(Ticket ticket) const { return ticket == latest_; }

private:
    Ticket latest_ = 0;
    bool inFlight_ = false;
    bool again_ = false;
};

} // namespace mqdesk::ui
