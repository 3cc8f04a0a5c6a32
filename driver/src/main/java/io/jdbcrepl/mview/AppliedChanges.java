package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.mview.MviewCommand.Name;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;

/**
 * The apply side's way to the ON COMMIT views: its changes reach the logs by the triggers, and
 * before it commits a transaction that changed a master of such a view, the view is refreshed in
 * that transaction, as an application's commit would refresh it.
 */
public final class AppliedChanges {

    private AppliedChanges() {
    }

    /** MariaDB: before the apply side's first change to {@code table} in a transaction (see {@link Refresher#lockMaster}). */
    public static void beforeChange(String delegateUrl, String schema, Connection local, Name table) throws SQLException {
        MviewCatalog catalog = catalog(delegateUrl, schema, local);
        if (catalog.dialect.part(MviewSql.class).locksMastersFirst() && catalog.state().onCommitMaster(table)) {
            new Refresher(catalog).lockMaster(local, table);
        }
    }

    private static MviewCatalog catalog(String delegateUrl, String schema, Connection local) throws SQLException {
        Dialect dialect = Dialect.forUrl(delegateUrl);
        return MviewCatalog.of(delegateUrl, dialect, schema, local);
    }

    /** {@code changed}: the local tables (stored names) the transaction applied changes to. */
    public static void beforeCommit(String delegateUrl, String schema, Connection local, Collection<Name> changed)
            throws SQLException {
        if (changed.isEmpty()) return;
        MviewCatalog catalog = catalog(delegateUrl, schema, local);
        if (!catalog.state().anyOnCommit()) return;
        new Refresher(catalog).beforeCommit(local, changed);
    }
}
