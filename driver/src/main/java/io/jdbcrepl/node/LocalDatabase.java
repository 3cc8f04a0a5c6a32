package io.jdbcrepl.node;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens connections of the node's own database with the real vendor driver and the credentials
 * of the application's connection: for the driver's own work (change notifications, the apply
 * side), never seen by the application and never captured.
 */
@FunctionalInterface
public interface LocalDatabase {

    Connection open() throws SQLException;
}
