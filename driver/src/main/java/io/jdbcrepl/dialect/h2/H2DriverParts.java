package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.apply.NativeCopy;
import io.jdbcrepl.capture.session.UnwrapViews;
import io.jdbcrepl.dialect.DialectParts;
import io.jdbcrepl.node.KeySession;
import io.jdbcrepl.node.Notifier;

import java.util.List;

/** H2's parts that do database I/O. */
public final class H2DriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(
                new H2DdlSessions(),
                new H2KeySql(),
                KeySession.NONE,
                new H2LogTableSql(),
                new H2GrantSql(),
                new H2MviewSql(),
                new H2RefreshSql(),
                new H2Catalogs(),
                Notifier.NONE,
                UnwrapViews.NONE,
                new H2VerifySql(),
                new H2DemoDatabase(),
                new H2DeltaTableRows(),
                new H2CaptureMethod(),
                new H2SourceReaders(),
                new H2ApplySql(),
                new H2ApplierLocks(),
                new H2ApplyValues(),
                new H2TableDdl(),
                new H2DdlSyntax(),
                NativeCopy.NONE);
    }
}
