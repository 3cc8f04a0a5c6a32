package io.jdbcrepl.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The command table of SPEC section 7. */
final class Commands {

    static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(60);
    /** How long {@code wait} lets an applier start (hold its lock, move its progress) before it gives up. */
    static final Duration NO_APPLIER_GRACE = Duration.ofSeconds(3);

    private static final List<Option> CONNECTION = List.of(Option.URL, Option.USER, Option.PASSWORD);

    static final List<Command> ALL = List.of(
            Command.leaf("demo", "", 0, 0,
                    "run three embedded H2 nodes with a conflicting workload and print a summary",
                    """
                    Starts three nodes on embedded H2 databases in this JVM, each with its own
                    jdbc:repl: URL and conflict handlers, that apply each other's changes. Plays the
                    salary conflict of docs/conflicts.md, then runs writers on every node for --seconds that
                    collide on purpose (counters, salaries, orders, badges), with a progress line;
                    then prints transactions per node, conflicts by handler, the error queue, the
                    replication lag and a comparison of every table across the nodes.
                    Exit code 0 only when the nodes converged as their handlers promise.
                    With --url (once per node) it runs on those databases instead: it drops and
                    creates its demo_* tables there and empties the driver's tables (its log,
                    progress, subscribers, error queue and conflicts), so give it databases made
                    for it; it can run on them again, also after a demo of other databases. It
                    ends with the status and errors list commands that show node n1.""",
                    List.of(Option.value("--nodes", "count: 2-9", "how many embedded nodes (default 3)"),
                            Option.value("--seconds", "seconds: 1-3600", "how long the writers run (default 10)"),
                            Option.value("--url", "jdbc:repl:url",
                                    "a node's database instead of embedded H2, once per node (no repl.node)")
                                    .asRepeatable(),
                            Option.USER, Option.PASSWORD, Option.JSON),
                    Commands::checkDemo, DemoCommand::run),
            Command.leaf("status", "", 0, 0,
                    "show this node's peers, apply progress and error queue size",
                    """
                    Shows the node named by the URL's repl.node, read from its database, whichever
                    process applies: for each peer it applies from, the applier's STATE (RUNNING
                    when an applier in any process holds its lock, else NOT_RUNNING), LAG(TX) the
                    transactions still to apply and LAG(S) how old the oldest is, IDLE(S) the
                    seconds since one was last applied (- for never), ERROR_QUEUE the transactions
                    waiting in the error queue, APPLIED the position applied here; then the
                    subscribers of this node's log that were dropped after repl.retention. A peer
                    that went back in time (restored from a backup, or a crash lost commits) is
                    shown REWOUND, with the evidence.
                    With --watch it reads the status again every 2 seconds, or as many as it is
                    given, until interrupted (Ctrl-C: exit code 0): in place on a terminal;
                    elsewhere each refresh follows a blank line and starts with a line that says
                    when it was read. --count ends it after that many refreshes (exit code 1 when
                    the last one failed).""",
                    with(CONNECTION, Option.JSON,
                            Option.optionalValue("--watch", "seconds: 1-86400",
                                    "show it again every so many seconds (default 2) until interrupted"),
                            Option.value("--count", "refreshes", "with --watch: stop after this many refreshes")),
                    ApplyCommands::checkStatus, ApplyCommands::status),
            Command.leaf("wait", "", 0, 0,
                    "wait until this node has applied everything its peers committed so far",
                    """
                    Waits until every transaction committed on each of this node's peers before the
                    call has been applied here or moved to the error queue, or until --timeout
                    passes (exit code 1). The apply side must be running (in an application or in
                    the apply command): when no applier, in any process, holds a peer's apply lock
                    or applies anything within 3 seconds, it fails at once (exit code 1).""",
                    with(CONNECTION, Option.value("--timeout", "duration: 30s, 5m, 1h",
                            "how long to wait (default 60s); 500ms, 2m30s and 7d work too")),
                    invocation -> invocation.duration("--timeout", DEFAULT_WAIT_TIMEOUT), ApplyCommands::await),
            Command.group("errors",
                    "list, show, retry or delete transactions in the error queue",
                    """
                    A transaction that fails to apply and that no conflict handler resolves is
                    parked in the error queue of the node that applies it, with its LCRs and the
                    error. These subcommands inspect, re-execute or discard them.""",
                    List.of(
                            Command.leaf("errors list", "", 0, 0,
                                    "list the queued transactions with their source and error",
                                    """
                                    Lists the transactions in this node's error queue: the entry's
                                    ID (what show, retry and delete take), source node, source
                                    transaction and position, its LCRs, and the error.""",
                                    with(CONNECTION, Option.JSON), Command.Check.NONE, ErrorCommands::list),
                            Command.leaf("errors show", "<entry-id>", 1, 1,
                                    "show one queued transaction's LCRs and error",
                                    """
                                    Shows the queued transaction <entry-id> (the ID column of
                                    'errors list'): each of its row LCRs with old and new values,
                                    and the error that parked it.""",
                                    with(CONNECTION, Option.JSON), Command.Check.NONE, ErrorCommands::show),
                            Command.leaf("errors retry", "<entry-id>", 0, 1,
                                    "re-execute one queued transaction, or all with --all",
                                    """
                                    Re-executes a queued transaction through the configured conflict
                                    handlers; one that succeeds leaves the queue. Give either an
                                    <entry-id> (the ID column of 'errors list') or --all (every
                                    queued transaction, oldest first).""",
                                    with(CONNECTION, Option.flag("--all",
                                            "retry every queued transaction, oldest first")),
                                    Commands::checkRetryTarget, ErrorCommands::retry),
                            Command.leaf("errors delete", "<entry-id>", 1, 1,
                                    "remove one transaction from the queue without applying it",
                                    """
                                    Removes the transaction <entry-id> (the ID column of 'errors
                                    list') from the error queue without applying it. Its changes
                                    are then lost on this node.""",
                                    CONNECTION, Command.Check.NONE, ErrorCommands::delete))),
            Command.leaf("verify", "", 0, 0,
                    "compare a table's rows across nodes and list the keys that differ",
                    """
                    Reads the --table on this node and on each of its peers (repl.peers), compares the
                    rows by key and lists the keys whose rows differ or exist on one side only.
                    Exit code 0 when all nodes agree, 1 when they differ.""",
                    with(CONNECTION, Option.value("--table", "[schema.]table",
                            "the table to compare; without a schema, in this connection's current one").asRequired(),
                            Option.JSON),
                    Command.Check.NONE, VerifyCommand::run),
            Command.leaf("refresh", "<view>...", 1, Integer.MAX_VALUE,
                    "refresh materialized views (DBMS_MVIEW.REFRESH)",
                    """
                    Refreshes each named materialized view in a transaction of its own: from its
                    materialized view log when it is a fast-refresh view (else by running its query
                    again), or as --complete or --fast say. The URL needs no repl.node.""",
                    with(CONNECTION, Option.flag("--complete", "run each view's query again"),
                            Option.flag("--fast", "refresh from the log; fail for a view that cannot be")),
                    RefreshCommand::check, RefreshCommand::run),
            Command.leaf("apply", "", 0, 0,
                    "run the apply side (inbound server) on its own until interrupted",
                    """
                    Runs the inbound server in the foreground until interrupted: reads each peer's
                    LCRs in commit order and applies them here, resolving conflicts with the
                    configured handlers. Use it when the applications run with repl.apply=false.
                    When this node's database is down at start it waits for it, retrying with
                    backoff; wrong credentials or an unknown database fail at once.""",
                    CONNECTION, Command.Check.NONE, ApplyCommands::apply),
            Command.leaf("join", "", 0, 0,
                    "copy every replicated table from a peer, then apply from every peer from there",
                    """
                    Joins the node named by the URL to a running mesh from the peer --from, while
                    every node keeps writing: every replicated table is copied from one consistent
                    snapshot of that peer (missing tables are created), and applying from each peer
                    is set to start exactly after what that snapshot holds. A line per table about
                    once a second says how far its copy is. Tables that hold rows here are refused
                    unless --replace, which empties them first. Interrupted (a crash, Ctrl-C), run
                    it again: tables copied stay, the rest are copied. Run it before the node
                    applies anything (repl.apply=false, or before its applications start), or let
                    repl.join do it when the node's applications start.""",
                    with(CONNECTION, Option.value("--from", "peer", "the peer (in repl.peers) to copy from").asRequired(),
                            Option.flag("--replace", "empty the tables that hold rows here, and start the join over")),
                    Command.Check.NONE, JoinCommand::run),
            Command.leaf("install", "", 0, 0,
                    "create the driver's tables (what repl.install=auto does)",
                    """
                    Creates the driver's schema (repl.schema: repl, or <database>_repl on
                    MariaDB/MySQL) when missing and its tables in it, as repl.install=auto does on
                    the first connection, and brings tables of an older driver up to this one's
                    version (repl_version); tables at it are left as they are, so running it
                    twice is harmless.
                    With --grants it creates nothing: it prints, for the database the URL names,
                    the GRANT statements of least privilege for the application user, the apply
                    user and the peer-reading user (CREATE ROLE/USER as comments), to run as the
                    owner of the driver's tables. MariaDB/MySQL users are name@host (host %
                    when omitted).""",
                    with(CONNECTION, Option.flag("--grants", "print the GRANT statements of each role; change nothing"),
                            Option.value("--app-user", "user", "the application's user (default repl_app)"),
                            Option.value("--apply-user", "user", "the apply side's user (default repl_apply)"),
                            Option.value("--reader-user", "user",
                                    "the user the peers read this node's log with (default repl_reader)")),
                    Commands::checkGrants, ApplyCommands::install));

    private Commands() {}

    static Command find(String name) {
        for (Command command : ALL) {
            if (command.name.equals(name)) {
                return command;
            }
        }
        return null;
    }

    private static List<Option> with(List<Option> first, Option... more) {
        List<Option> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    private static void checkDemo(Invocation invocation) throws UsageException {
        invocation.integer("--seconds", DemoCommand.DEFAULT_SECONDS, 1, 3600);
        int nodes = invocation.integer("--nodes", DemoCommand.DEFAULT_NODES, 2, 9);
        List<String> urls = invocation.values(Option.URL.name());
        if (urls.size() == 1) {
            throw new UsageException("'demo' needs --url once per node, at least twice, or none for embedded H2");
        }
        if (!urls.isEmpty() && invocation.value("--nodes") != null && nodes != urls.size()) {
            throw new UsageException("'demo' got --nodes " + nodes + " and " + urls.size() + " --url options; give one or"
                    + " the other (--url once per node)");
        }
    }

    private static void checkGrants(Invocation invocation) throws UsageException {
        if (invocation.flag("--grants")) return;
        for (String option : List.of("--app-user", "--apply-user", "--reader-user")) {
            if (invocation.value(option) != null) throw new UsageException("option '" + option + "' goes with --grants");
        }
    }

    private static void checkRetryTarget(Invocation invocation) throws UsageException {
        boolean all = invocation.flag("--all");
        boolean one = !invocation.operands().isEmpty();
        if (all == one) {
            throw new UsageException(all
                    ? "'errors retry' takes either <entry-id> or --all, not both"
                    : "'errors retry' needs <entry-id> or --all");
        }
    }
}
