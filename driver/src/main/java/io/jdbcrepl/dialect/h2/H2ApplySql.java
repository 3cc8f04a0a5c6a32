package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.apply.ApplySql;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/** H2's apply SQL. */
final class H2ApplySql implements ApplySql {

    @Override
    public String jsonParameter() {
        return "?";
    }

    @Override
    public String nullSafeEquals() {
        return " IS NOT DISTINCT FROM ?";
    }

    @Override
    public String oneRowOf(String table, String where) {
        return where + " LIMIT 1";
    }

    /** H2's "the database is read only" (SQLState 90097, which is H2's own). */
    private static final int READ_ONLY = 90097;

    @Override
    public boolean passing(SQLException e) {
        return e.getErrorCode() == READ_ONLY || deadlockAftermath(e);
    }

    @Override
    public boolean lockConflict(SQLException e) {
        return deadlockAftermath(e);
    }

    /**
     * H2 2.x sometimes reports its own rollback of a deadlock victim, racing with the victim's next
     * statement, as a general error ("Transaction was illegally transitioned from CLOSED to
     * ROLLING_BACK"): the transaction is gone, and running it again is all there is to do.
     */
    private static boolean deadlockAftermath(SQLException e) {
        String message = e.getMessage();
        return e.getErrorCode() == 50000 && message != null && message.contains("Transaction was illegally transitioned");
    }

    /** H2 does not tell who waits for whom: groups shrink only when they take long. */
    @Override
    public List<LockWaitQuery> lockWaitQueries() {
        return List.of();
    }

    /** H2 has no such settings: an embedded database cannot be partitioned away. */
    @Override
    public void peerTimeouts(Duration timeout, Properties p) {
    }
}
