package io.jdbcrepl.api;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * The replication admin API of a node, reached from any {@code jdbc:repl:} connection with
 * {@code repl.node}: {@code connection.unwrap(ReplAdmin.class)}. Each call uses connections of its
 * own (never the application's transaction).
 */
public interface ReplAdmin {

    /** Creates the driver's tables when missing (what {@code repl.install=auto} does). */
    void install() throws SQLException;

    /**
     * Returns once every change committed at every peer before the call has been applied here or
     * queued in the error queue (SPEC 4.7).
     *
     * <p>It waits its whole {@code timeout} even when no applier from a peer runs, unlike the
     * command line's {@code wait}, which gives up after 3 seconds without one: an applier between
     * two sessions (backing off after an outage, a standby about to take over, a JVM still starting)
     * holds no apply lock for a while, and the caller chose how long that may take. The timeout's
     * message then says so: no applier holds the peer's apply lock and none applied anything.
     *
     * @throws java.sql.SQLTimeoutException when {@code timeout} passes first (SQLState HYT00); its
     *         message names the timeout as people write it ({@code 20s}, {@code 1m30s}, {@code 500ms})
     */
    void waitForPeers(Duration timeout) throws SQLException;

    /**
     * Joins this node to a running mesh from the peer {@code donor} (SPEC 8.1): copies every
     * replicated table from one consistent snapshot of the donor while every node keeps writing,
     * then sets this node to apply from each peer exactly from what that snapshot holds. Missing
     * tables are created; a table that already holds rows is refused (SQLState 55000) unless
     * {@code replace}, which empties it first. A join stopped half way (a crash) goes on from the
     * tables not yet copied when called again. Returns once the copy is done; this node's appliers
     * (started by its connections, or the {@code apply} command) apply from then on.
     *
     * @param progress told about each table as it is copied (about once a second, and when done); may be null
     */
    void join(String donor, boolean replace, java.util.function.Consumer<JoinProgress> progress) throws SQLException;

    /** {@link #join(String, boolean, java.util.function.Consumer)} refusing tables that hold rows, without progress. */
    default void join(String donor) throws SQLException {
        join(donor, false, null);
    }

    /** Per peer: positions read and applied, lag, error queue depth, errors and the applier's state. */
    NodeStatus status() throws SQLException;

    /** {@code repl.health.lag}: the lag above which a health check of this node reports DOWN (SPEC 8.5). */
    Duration healthLag();

    /**
     * Purges the LCRs of this node's {@code repl_log} that every subscriber and every peer in
     * {@code repl.peers} has consumed, and drops subscribers silent for longer than
     * {@code repl.retention}; done periodically by the inbound server. Returns the LCRs deleted.
     */
    long purge() throws SQLException;

    /** Starts the inbound server of this node in this JVM when it is not running (as a connection does). */
    void startApply() throws SQLException;

    /** Stops this node's inbound server in this JVM, if it runs; its connections close. */
    void stopApply() throws SQLException;

    /** The error queue's entries (SPEC 5.5), in source position order, without their LCRs. */
    List<ErrorEntry> errors() throws SQLException;

    /** One error queue entry with its LCRs; SQLState 02000 when there is none with that id. */
    ErrorEntry error(long id) throws SQLException;

    /**
     * Executes one entry: re-applies its LCRs in one local transaction with the handlers configured
     * now and removes it. When it fails again the entry is kept with the new error, and the error is
     * thrown (SQLState 55000); 02000 when there is no such entry.
     */
    void retryError(long id) throws SQLException;

    /** Executes every entry in source position order, stopping at the first failure (thrown); returns how many applied. */
    int retryAllErrors() throws SQLException;

    /** Deletes one entry; SQLState 02000 when there is none with that id. */
    void deleteError(long id) throws SQLException;
}
