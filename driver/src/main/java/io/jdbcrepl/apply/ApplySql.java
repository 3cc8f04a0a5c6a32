package io.jdbcrepl.apply;


import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * What differs per database in the SQL the apply side writes and the errors it reads: the texts of
 * statements, what the database's own error codes say besides the SQLState, how a session is set
 * up, and what the database can do.
 */
public interface ApplySql {

    /** A bind parameter for a JSON column of the driver's tables ({@code ?}, or with a cast). */
    String jsonParameter();

    /** A column compared with a bind parameter NULL-safely: what follows the column ({@code  IS NOT DISTINCT FROM ?}). */
    String nullSafeEquals();

    /**
     * The WHERE of a change of one row of several identical ones of a table without key (SPEC 3.3):
     * {@code where} is the WHERE that matches them all, {@code table} the table.
     */
    String oneRowOf(String table, String where);

    /**
     * Whether an error says, by this database's own codes, that it passes by itself (SPEC 8.8: the
     * applier pauses and retries); the SQLStates every database shares are read apart.
     */
    boolean passing(SQLException e);

    /**
     * Whether an error says, by this database's own codes, that a local transaction lost a race for
     * locks (a deadlock, a lock wait timeout) and is simply run again.
     */
    boolean lockConflict(SQLException e);

    /** Whether a vendor error code (besides SQLState 23505) says a unique key was violated; the SQLState suffices unless a database says otherwise. */
    default boolean uniqueViolation(int errorCode) {
        return false;
    }

    /** Whether a vendor error code (besides SQLState 23503 and 23506) says a foreign key was violated; as {@link #uniqueViolation}. */
    default boolean foreignKeyViolation(int errorCode) {
        return false;
    }

    /**
     * Queries whose one row says whether another session waits for a row lock this session's
     * transaction holds, in the order to try them: the first that runs is used; none when the
     * database cannot tell (LockWaits).
     */
    List<LockWaitQuery> lockWaitQueries();

    /** A lock-wait query, and how long its answer holds (0: asked every time). */
    record LockWaitQuery(String sql, Duration interval) {
    }

    /**
     * Whether UPDATE and DELETE statements of one shape may be sent as a JDBC batch: the count of
     * rows each changed comes back exact (INSERTs are batched everywhere).
     */
    default boolean batchesChanges() {
        return true;
    }

    /**
     * Whether the applier's transactions need READ COMMITTED, where the default isolation would show
     * a conflict's row as of an older snapshot than the change saw (InnoDB's REPEATABLE READ).
     */
    default boolean applyReadCommitted() {
        return false;
    }

    /**
     * Sets up a session that applies or reads rows so that instants go in and out as UTC, where the
     * database shows a column of instants as wall time of the session's zone; nothing elsewhere.
     */
    default void instantsInUtc(Connection local) throws SQLException {
    }

    /**
     * Text of a stored LCR, changed so that this database can hold it in the error queue rather
     * than refuse the entry ({@code json}: for a JSON column); as it is where it can.
     */
    default String storable(String text, boolean json) {
        return text;
    }

    /**
     * Sets the vendor driver's connect and socket timeouts for a connection to a peer, unless the
     * peer's URL sets its own: a socket timeout also bounds every statement.
     */
    void peerTimeouts(Duration timeout, Properties p);

    /**
     * Connection properties under which a JDBC batch of INSERTs reaches the database as few
     * statements (a join's copy); none by default, and never one the user's URL set.
     */
    default void bulkInserts(Properties p) {
    }
}
