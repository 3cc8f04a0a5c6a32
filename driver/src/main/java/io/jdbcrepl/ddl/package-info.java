/**
 * DDL run on one database as another database runs it (SPEC 8.3): {@link io.jdbcrepl.ddl.DdlTranslation}
 * reads a statement of the common forms (CREATE/ALTER/DROP/RENAME TABLE, CREATE/DROP INDEX, TRUNCATE)
 * and writes it again for the target, with the cross-vendor type mapping of the join
 * ({@link io.jdbcrepl.ddl.TableDdl#mappedType}); what it cannot translate it refuses, naming the part.
 * What differs per database is the part {@link io.jdbcrepl.ddl.DdlSyntax}.
 */
package io.jdbcrepl.ddl;
