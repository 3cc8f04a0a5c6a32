package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.session.UnwrapViews;
import io.jdbcrepl.dialect.DialectParts;
import io.jdbcrepl.node.KeySession;
import io.jdbcrepl.node.Notifier;

import java.util.List;

/** PostgreSQL's parts that do database I/O. */
public final class PostgresDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(
                new PostgresDdlSessions(),
                new PostgresKeySql(),
                KeySession.NONE,
                new PostgresLogTableSql(),
                new PostgresGrantSql(),
                new PostgresMviewSql(),
                new PostgresRefreshSql(),
                new PostgresCatalogs(),
                (Notifier) PostgresNotifier::new,
                (UnwrapViews) PostgresViews::new,
                new PostgresVerifySql(),
                new PostgresDemoDatabase(),
                new PostgresCaptureMethod(),
                new PostgresInStatementCapture(),
                new PostgresSourceReaders(),
                new PostgresApplySql(),
                new PostgresApplierLocks(),
                new PostgresApplyValues(),
                new PostgresTableDdl(),
                new PostgresDdlSyntax(),
                new PostgresNativeCopy());
    }
}
