package org.topupbatch.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.List;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * A real SFTP server (Apache MINA SSHD) on 127.0.0.1 and a free port, serving {@code root} to one
 * user with a password; its host key is written to a known_hosts file so that clients can check it.
 */
public final class SftpServer implements AutoCloseable {

    public static final String USER = "erp";

    private final SshServer sshd;
    private final Path root;
    private final String password;
    private final Path knownHosts;

    private SftpServer(SshServer sshd, Path root, String password, Path knownHosts) {
        this.sshd = sshd;
        this.root = root;
        this.password = password;
        this.knownHosts = knownHosts;
    }

    /** Starts serving {@code root}; the host key and known_hosts file go into {@code keys}. */
    public static SftpServer start(Path root, Path keys, String password) {
        try {
            Files.createDirectories(root);
            Files.createDirectories(keys);
            SshServer sshd = SshServer.setUpDefaultServer();
            sshd.setHost("127.0.0.1");
            sshd.setPort(0);
            sshd.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(keys.resolve("host-key")));
            sshd.setPasswordAuthenticator((user, given, session) -> USER.equals(user) && password.equals(given));
            sshd.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
            sshd.setFileSystemFactory(new VirtualFileSystemFactory(root.toAbsolutePath()));
            sshd.start();
            PublicKey hostKey = sshd.getKeyPairProvider().loadKeys(null).iterator().next().getPublic();
            Path knownHosts = keys.resolve("known_hosts");
            Files.writeString(knownHosts, "[127.0.0.1]:" + sshd.getPort() + " " + PublicKeyEntry.toString(hostKey) + "\n",
                    StandardCharsets.US_ASCII);
            return new SftpServer(sshd, root, password, knownHosts);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test SFTP server", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the test SFTP server's host key", e);
        }
    }

    /** An address of a folder on this server (relative to its root), for topup.inbox or topup.reports. */
    public String uri(String folder) {
        return "sftp://" + USER + "@127.0.0.1:" + sshd.getPort() + "/" + folder;
    }

    public Path root() {
        return root;
    }

    public String password() {
        return password;
    }

    public Path knownHosts() {
        return knownHosts;
    }

    @Override
    public void close() throws IOException {
        sshd.stop(true);
    }
}
