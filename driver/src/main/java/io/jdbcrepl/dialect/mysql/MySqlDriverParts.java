package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.apply.NativeCopy;
import io.jdbcrepl.capture.session.UnwrapViews;
import io.jdbcrepl.dialect.DialectParts;
import io.jdbcrepl.node.KeySession;
import io.jdbcrepl.node.Notifier;

import java.util.List;

/** MySQL's and MariaDB's parts that do database I/O. */
public final class MySqlDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(
                new MySqlDdlSessions(),
                new MySqlKeySql(),
                new MySqlKeySession(),
                new MySqlLogTableSql(),
                new MySqlGrantSql(),
                new MySqlMviewSql(),
                new MySqlRefreshSql(),
                new MySqlCatalogs(),
                Notifier.NONE,
                UnwrapViews.NONE,
                new MySqlVerifySql(),
                new MySqlDemoDatabase(),
                new MySqlSessionZone(),
                new MySqlCaptureMethod(),
                new MySqlSourceReaders(),
                new MySqlApplySql(),
                new MySqlApplierLocks(),
                new MySqlApplyValues(),
                new MySqlTableDdl(),
                new MySqlDdlSyntax(),
                NativeCopy.NONE);
    }
}
