package io.jdbcrepl.capture.session;

import io.jdbcrepl.intercept.ExecuteMethod;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * SQL {@code COPY t … FROM 'file' | PROGRAM …} (PostgreSQL) or {@code LOAD DATA … INTO TABLE t} (MariaDB)
 * on a replicated table: each execution is a {@link StagedLoad}, its count the rows inserted into t.
 */
final class StagedLoadStatement implements StatementInterceptor {

    private final CaptureSession session;
    private long updateCount = ASK_THE_STATEMENT;

    StagedLoadStatement(CaptureSession session) {
        this.session = session;
    }

    @Override
    public Object execute(Execution execution) throws SQLException {
        updateCount = ASK_THE_STATEMENT;
        if (execution.method() == ExecuteMethod.EXECUTE_QUERY) {
            throw SqlState.NO_DATA.exception("The statement returns no result set (use executeUpdate): " + execution.sql());
        }
        StagedLoad load = session.stageLoad(execution.sql(), execution.applicationConnection());
        if (load == null) return execution.proceed(); // repl.unsupported=passthrough, or the table is gone
        // A plain statement loads on the application's own statement (MariaDB: its local infile stream)
        Statement statement = execution.kind() == StatementKind.PLAIN ? execution.statement()
                : execution.connection().createStatement();
        try {
            statement.execute(load.loadSql());
        } catch (SQLException | RuntimeException e) {
            load.abandon(e);
            throw e;
        } finally {
            if (statement != execution.statement()) statement.close();
        }
        long rows = load.finish();
        updateCount = rows;
        return switch (execution.method()) {
            case EXECUTE -> Boolean.FALSE;
            case EXECUTE_UPDATE -> (int) Math.min(rows, Integer.MAX_VALUE);
            case EXECUTE_LARGE_UPDATE, EXECUTE_QUERY -> rows;
        };
    }

    @Override
    public long updateCount() {
        return updateCount;
    }

    @Override
    public void moreResults() {
        if (updateCount != ASK_THE_STATEMENT) updateCount = -1;
    }

    @Override
    public long[] executeBatch(PreparedBatch batch) throws SQLException {
        throw CaptureSession.loadInBatch();
    }
}
