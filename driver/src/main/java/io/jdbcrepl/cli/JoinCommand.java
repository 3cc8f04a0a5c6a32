package io.jdbcrepl.cli;

import io.jdbcrepl.api.JoinProgress;
import io.jdbcrepl.apply.NodeAdmin;
import io.jdbcrepl.config.DurationText;
import io.jdbcrepl.node.Node;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code join}: the node named by the URL joins the mesh from a peer (SPEC 8.1), a progress line
 * per table about once a second (rows, rows/s, time left) and one when it is copied.
 */
final class JoinCommand {

    private JoinCommand() {
    }

    static int run(Invocation invocation) throws SQLException {
        Node node = ApplyCommands.node(invocation);
        String donor = invocation.value("--from");
        PrintStream out = invocation.out;
        long began = System.nanoTime();
        long[] rows = {0};
        int[] tables = {0};
        new NodeAdmin(node).join(donor, invocation.flag("--replace"), p -> {
            out.println(line(p));
            if (p.done()) {
                rows[0] += p.rows();
                tables[0]++;
            }
        });
        Duration took = Duration.ofMillis(Math.max(1, (System.nanoTime() - began) / 1_000_000));
        out.println(node.name() + " has joined from " + donor + " (" + tables[0] + " tables, " + rows[0] + " rows copied in "
                + DurationText.of(took)
                + "). Its appliers apply from every peer from there once they run: the application's connections with"
                + " repl.peers start them, or the apply command.");
        return ExitCode.OK;
    }

    /** {@code orders: 120000/1000000 rows, 45000 rows/s, 20s left}, or {@code orders: 1000000 rows copied}. */
    static String line(JoinProgress p) {
        if (p.done()) {
            return p.table() + ": " + p.rows() + " rows copied" + (p.rows() > 0 ? String.format(Locale.ROOT, " (%.0f rows/s)",
                    p.rowsPerSecond()) : "");
        }
        long left = p.secondsLeft();
        return p.table() + ": " + p.rows() + "/" + p.total() + " rows, " + String.format(Locale.ROOT, "%.0f", p.rowsPerSecond())
                + " rows/s, " + (left < 0 ? "time left unknown" : DurationText.of(Duration.ofSeconds(left)) + " left");
    }
}
