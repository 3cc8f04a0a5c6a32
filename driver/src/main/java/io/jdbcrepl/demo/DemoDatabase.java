package io.jdbcrepl.demo;

/**
 * What the demo writes and shows differently per database: the type of its timestamp columns,
 * the options of its tables, the name it shows. A part ({@code dialect.part(DemoDatabase.class)}).
 */
public interface DemoDatabase {

    /** The column type of a timestamp with microseconds. */
    String timestampType();

    /** What follows a table's column list in {@code CREATE TABLE}: "" or options (a transactional engine). */
    default String tableOptions() {
        return "";
    }

    /** The database's name in the demo's summary ({@code PostgreSQL}). */
    String label();
}
