package io.jdbcrepl.apply;

import io.jdbcrepl.logging.DriverLog;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One thing that stops and is retried with backoff (SPEC 8.8): the log says at WARN once when it
 * stops, reminds every few minutes while it goes on, and says once when it works again. Not thread
 * safe: one thread's retry loop.
 */
public final class Outage {

    static final long FIRST_BACKOFF_MILLIS = 100;
    static final long MAX_BACKOFF_MILLIS = 30_000;
    /** How often a person is reminded of an outage that goes on. */
    private static final long REMINDER_NANOS = TimeUnit.MINUTES.toNanos(5);

    private final DriverLog log;
    private final String what;
    private long since; // System.nanoTime() when the current outage began, 0 when none
    private long lastReminder;
    private boolean warned;

    /** @param what what stops, for the log: "applying from n2 to n1" */
    Outage(DriverLog log, String what) {
        this.log = log;
        this.what = what;
    }

    /** Whether an outage goes on. */
    boolean going() {
        return since != 0;
    }

    /** How long the current outage has lasted, in nanoseconds (0 when none). */
    long nanos() {
        return since == 0 ? 0 : System.nanoTime() - since;
    }

    /** Whether the current outage was said at WARN. */
    boolean warned() {
        return warned;
    }

    /** A failure: begins an outage unless one goes on; whether it began now. */
    boolean failed() {
        if (since != 0) return false;
        since = System.nanoTime();
        warned = false;
        return true;
    }

    /** Says at WARN that it stopped, the first time, then at most every few minutes that it still is. */
    void warn(Exception e) {
        long now = System.nanoTime();
        if (!warned) {
            log.warn("jdbc:repl: " + what + " stopped, retrying with backoff: " + valueFree(e));
        } else if (now - lastReminder >= REMINDER_NANOS) {
            log.warn("jdbc:repl: " + what + " still stopped after " + Duration.ofNanos(now - since).toSeconds()
                    + " s, retrying with backoff: " + valueFree(e));
        } else {
            return;
        }
        log.debug("jdbc:repl: " + what + " stopped on: " + e);
        warnedNow();
    }

    /**
     * The failure without row values (SPEC 8.8): a passing error's message (a refused connection, a
     * deadlock) quotes none and says the most; any other may (PostgreSQL's "Failing row contains",
     * a batch entry's statement), so only its kind and codes, the message at DEBUG.
     */
    static String valueFree(Exception e) {
        if (e instanceof java.io.IOException || e instanceof SQLException s && SqlErrors.transientError(s)) return e.toString();
        String codes = e instanceof SQLException s ? " [SQLState " + s.getSQLState() + ", error code " + s.getErrorCode() + "]" : "";
        return e.getClass().getName() + codes + " (its message, which may quote row values, at DEBUG)";
    }

    /** The caller said the outage at WARN in its own words. */
    void warnedNow() {
        warned = true;
        lastReminder = System.nanoTime();
    }

    /** It works again: says so when the outage was said at WARN; whether an outage ended. */
    boolean ended() {
        if (since == 0) return false;
        if (warned) {
            log.warn("jdbc:repl: " + what + " again after " + Duration.ofNanos(System.nanoTime() - since).toMillis()
                    + " ms stopped");
        }
        since = 0;
        return true;
    }

    /** What the retry loop runs: opening something that needs the database. */
    public interface Attempt<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code attempt} until it succeeds, retrying with backoff while it fails with a passing
     * error (the database down, starting up, out of connections: {@link SqlErrors#transientError});
     * any other error (wrong credentials, an unknown database) is thrown at once.
     *
     * @param what what waits, for the log: "starting node n1"
     * @throws InterruptedException when the thread is interrupted while it waits
     */
    public static <T> T retry(DriverLog log, String what, Attempt<T> attempt) throws SQLException, InterruptedException {
        Outage outage = new Outage(log, what);
        long backoff = FIRST_BACKOFF_MILLIS;
        while (true) {
            try {
                T result = attempt.run();
                outage.ended();
                return result;
            } catch (SQLException e) {
                if (!SqlErrors.transientError(e)) throw e;
                outage.failed();
                outage.warn(e);
            }
            Thread.sleep(backoff);
            backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
        }
    }
}
