package io.jdbcrepl.ddl;

/**
 * A database's part in logging DDL (SPEC 8.3): whether its DDL commits the open transaction, and
 * how to tell a session's id and whether it still lives (a DDL whose session died between the
 * statement and its LCR is found out by the next one, {@link DdlIntents}).
 */
public interface DdlSessions {

    /** Whether DDL commits the open transaction (MariaDB/MySQL, H2), so that its LCR cannot be in it. */
    boolean ddlCommits();

    /** One row, one column: this session's id. */
    String currentSession();

    /** One parameter, a session id: a row when that session is connected. */
    String sessionAlive();

    /** Two parameters, schema and index name: the index's table; null where DROP INDEX names its table. */
    String tableOfIndex();
}
