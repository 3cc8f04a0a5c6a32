package io.jdbcrepl.cli;

import io.jdbcrepl.api.NodeStatus;

import java.io.Console;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code status --watch [seconds]}: the status again and again until interrupted. On a terminal
 * each refresh replaces the last (ANSI clear and home); elsewhere (a pipe, a file, a test) each
 * one follows a blank line and starts with a line that says when it was read. A refresh that
 * fails says why in its place and the watch goes on: a database that is down for a while is what
 * one watches for.
 */
final class StatusWatch {

    static final int DEFAULT_SECONDS = 2;
    private static final String CLEAR_AND_HOME = "\033[H\033[2J";

    /** One reading of the status. */
    interface Source {
        NodeStatus read() throws SQLException;
    }

    /** Prints one status. */
    interface Printer {
        void print(NodeStatus status, PrintStream out);
    }

    private final PrintStream out;
    private final boolean terminal;
    private final int seconds;
    private final int count; // 0: until interrupted

    StatusWatch(PrintStream out, boolean terminal, int seconds, int count) {
        this.out = out;
        this.terminal = terminal;
        this.seconds = seconds;
        this.count = count;
    }

    /**
     * Refreshes every {@code seconds} until {@code count} refreshes are shown or the thread is
     * interrupted (exit code 0); with a count, 1 when the last refresh failed. In a process of its
     * own, Ctrl-C (or a SIGTERM) also ends it with exit code 0, not the JVM's 130.
     */
    int run(Source source, Printer printer) {
        CountDownLatch done = new CountDownLatch(1);
        Thread watching = Thread.currentThread();
        Thread hook = new Thread(() -> {
            watching.interrupt();
            try {
                done.await(2, TimeUnit.SECONDS); // the refresh under way ends, its output complete
            } catch (InterruptedException ignored) {
                // exit anyway
            }
            out.flush();
            Runtime.getRuntime().halt(ExitCode.OK); // interrupted is how a watch ends: not a failure
        }, "jdbc-repl-status-watch-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return loop(source, printer);
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs already and ends the process
            }
        }
    }

    private int loop(Source source, Printer printer) {
        boolean failed = false;
        for (int shown = 0; count == 0 || shown < count; shown++) {
            if (shown > 0) {
                try {
                    Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
                } catch (InterruptedException interrupted) {
                    return ExitCode.OK;
                }
            }
            NodeStatus status = null;
            String error = null;
            try {
                status = source.read();
            } catch (SQLException e) {
                error = "status failed: " + Main.oneLine(e.getMessage())
                        + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")");
            }
            if (Thread.currentThread().isInterrupted()) return ExitCode.OK; // stopped while reading
            if (terminal) {
                out.print(CLEAR_AND_HOME);
            } else if (shown > 0) {
                out.println();
            }
            out.println("At " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ", every " + seconds + "s"
                    + (count == 0 ? " until interrupted" : ", " + (shown + 1) + " of " + count) + ":");
            if (status != null) {
                printer.print(status, out);
            } else {
                out.println(error);
            }
            out.flush();
            failed = status == null;
        }
        return failed ? ExitCode.FAILED : ExitCode.OK;
    }

    /**
     * Whether {@code out} is this process's standard output on a terminal. Java 17 to 21 have a
     * console only on a terminal; from Java 22 there is one also when redirected, and its
     * isTerminal() tells.
     */
    static boolean isTerminal(PrintStream out) {
        Console console = System.console();
        if (out != System.out || console == null) return false;
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException beforeJava22) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException unknown) {
            return false;
        }
    }
}
