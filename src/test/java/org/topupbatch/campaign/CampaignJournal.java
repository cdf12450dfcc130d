package org.topupbatch.campaign;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import org.topupbatch.testing.FreePorts;

/** The journal database a campaign runs the product on: the default H2 file, or an embedded PostgreSQL. */
interface CampaignJournal extends AutoCloseable {

    /** The product's settings that select this journal. */
    Map<String, String> settings();

    String name();

    /** Stops and starts the database server under the running product (PostgreSQL only). */
    default void restart() throws IOException {
        throw new UnsupportedOperationException(name() + " has no server to restart");
    }

    @Override
    default void close() throws IOException {
    }

    static CampaignJournal h2() {
        return new CampaignJournal() {
            @Override
            public Map<String, String> settings() {
                return Map.of();
            }

            @Override
            public String name() {
                return "H2";
            }
        };
    }

    /**
     * An embedded PostgreSQL server with its data in {@code dir}, on a fixed port so that a restart
     * comes back where the product looks. A server that cannot start throws: the campaign fails, never skips.
     */
    static CampaignJournal postgres(Path dir) throws IOException {
        return new Postgres(Files.createDirectories(dir), FreePorts.pick());
    }

    final class Postgres implements CampaignJournal {
        private final Path dir;
        private final int port;
        private EmbeddedPostgres server;

        Postgres(Path dir, int port) throws IOException {
            this.dir = dir;
            this.port = port;
            this.server = start();
            try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE topup");
            } catch (Exception e) {
                throw new IOException("cannot create the campaign's database", e);
            }
        }

        // never cleaned: a restart must find the journal where it was (the folder is the test's own)
        private EmbeddedPostgres start() throws IOException {
            return EmbeddedPostgres.builder().setPort(port).setDataDirectory(dir).setCleanDataDirectory(false).start();
        }

        @Override
        public Map<String, String> settings() {
            return Map.of("TOPUP_DB_URL", "jdbc:postgresql://localhost:" + port + "/topup",
                    "TOPUP_DB_USER", "postgres", "TOPUP_DB_PASSWORD", "postgres");
        }

        @Override
        public String name() {
            return "PostgreSQL";
        }

        @Override
        public void restart() throws IOException {
            server.close();
            server = start();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
