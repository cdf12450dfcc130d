package org.topupbatch.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What outside tools see of the service: deploy/install.sh against a throwaway root (twice: the
 * second run changes nothing), and deploy/topup-batch.service as systemd-analyze rates and
 * verifies it offline. systemd-analyze missing is a failure, never a skip (.ci/run installs it).
 */
class ServiceDeployTest {

    static final Path DEPLOY = Path.of("deploy").toAbsolutePath();
    static final Path UNIT = DEPLOY.resolve("topup-batch.service");
    static final double MAX_EXPOSURE = 4.0;
    static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    @TempDir Path tmp;

    @Test
    void installCreatesUserFoldersEnvironmentFileJarAndUnitAndASecondRunChangesNothing() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        Path jar = Files.writeString(tmp.resolve("topup-batch.jar"), "not really a jar");

        Result first = install(root, jar);
        assertThat(first.code).as(first.output).isZero();

        String passwd = Files.readString(root.resolve("etc/passwd"));
        assertThat(passwd).as("etc/passwd").containsPattern("(?m)^topup:x:\\d+:\\d+:[^:]*:/var/lib/topup-batch:/usr/sbin/nologin$");
        assertThat(Files.readString(root.resolve("etc/group"))).containsPattern("(?m)^topup:x:\\d+:");
        int uid = Integer.parseInt(passwd.replaceAll("(?s).*?^topup:x:(\\d+):.*", "$1").trim());
        for (String d : List.of("var/lib/topup-batch", "var/lib/topup-batch/data", "var/lib/topup-batch/inbox",
                "var/lib/topup-batch/reports")) {
            assertThat(mode(root.resolve(d))).as(d).isEqualTo("rwxr-x---");
            if (ROOT) {
                assertThat(Files.getAttribute(root.resolve(d), "unix:uid")).as(d + " owner").isEqualTo(uid);
            }
        }
        if (!ROOT) {
            assertThat(first.output).contains("not root: owners left as they are");
        }
        Path env = root.resolve("etc/topup-batch/topup-batch.env");
        assertThat(mode(env)).as("environment file").isEqualTo("rw-------");
        assertThat(Files.readString(env)).contains("TOPUP_BASE_URL=", "TOPUP_API_KEY=", "TOPUP_API_SECRET=");
        assertThat(root.resolve("opt/topup-batch/topup-batch.jar")).hasSameBinaryContentAs(jar);
        assertThat(mode(root.resolve("opt/topup-batch/topup-batch.jar"))).isEqualTo("rw-r--r--");
        assertThat(root.resolve("etc/systemd/system/topup-batch.service")).hasSameBinaryContentAs(UNIT);
        assertThat(root.resolve("usr/lib/sysusers.d/topup-batch.conf")).hasSameBinaryContentAs(DEPLOY.resolve("topup-batch.sysusers"));

        Map<String, String> before = snapshot(root);
        Result second = install(root, jar);
        assertThat(second.code).as(second.output).isZero();
        assertThat(snapshot(root)).as("the tree after a second run").isEqualTo(before);
        assertThat(second.output).as("second run's output").doesNotContain("created", "written", "Creating");
    }

    @Test
    void anExistingEnvironmentFileKeepsItsContentAndIsMade0600() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        Path jar = Files.writeString(tmp.resolve("topup-batch.jar"), "jar");
        Path env = Files.createDirectories(root.resolve("etc/topup-batch")).resolve("topup-batch.env");
        Files.writeString(env, "TOPUP_API_KEY=mine\n");
        Files.setPosixFilePermissions(env, PosixFilePermissions.fromString("rw-r--r--"));

        Result r = install(root, jar);

        assertThat(r.code).as(r.output).isZero();
        assertThat(Files.readString(env)).isEqualTo("TOPUP_API_KEY=mine\n");
        assertThat(mode(env)).isEqualTo("rw-------");
        assertThat(r.output).contains("kept     " + env);
    }

    @Test
    void aNewerJarReplacesTheInstalledOne() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        Path jar = Files.writeString(tmp.resolve("topup-batch.jar"), "v1");
        assertThat(install(root, jar).code).isZero();
        Files.writeString(jar, "v2");

        Result r = install(root, jar);

        assertThat(r.code).as(r.output).isZero();
        assertThat(root.resolve("opt/topup-batch/topup-batch.jar")).hasContent("v2");
        assertThat(r.output).contains("written  " + root.resolve("opt/topup-batch/topup-batch.jar"));
    }

    @Test
    void systemdAnalyzeSecurityRatesTheUnitAtMost4() throws Exception {
        Result r = run(List.of(systemdAnalyze(), "security", "--offline=true", "--no-pager", UNIT.toString()));
        Matcher m = Pattern.compile("Overall exposure level for topup-batch\\.service: (\\d+\\.\\d+) (\\S+)").matcher(r.output);
        if (!m.find()) {
            fail("no 'Overall exposure level' line from systemd-analyze security (exit " + r.code + "):\n" + r.output);
        }
        double exposure = Double.parseDouble(m.group(1));
        System.out.println("systemd-analyze security: topup-batch.service exposure " + exposure + " " + m.group(2));
        assertThat(exposure).as("exposure of %s (at most %s); systemd-analyze said:%n%s", UNIT, MAX_EXPOSURE, r.output)
                .isLessThanOrEqualTo(MAX_EXPOSURE);
    }

    /** The hardening leaves the JVM what it needs, and the unit keeps how the product stops. */
    @Test
    void theUnitKeepsWhatTheJvmNeedsAndHowTheProductStops() throws Exception {
        List<String> lines = Files.readAllLines(UNIT).stream().map(String::strip).toList();
        assertThat(lines).as("the JIT writes code it executes: W+X memory must stay allowed")
                .noneMatch(l -> l.matches("MemoryDenyWriteExecute=\\s*(yes|true|on|1)"));
        assertThat(lines).as("the provider, the webhook and the management ports need the network")
                .noneMatch(l -> l.matches("PrivateNetwork=\\s*(yes|true|on|1)") || l.startsWith("IPAddressDeny="));
        assertThat(lines).contains("RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
                "ReadWritePaths=/var/lib/topup-batch", "WorkingDirectory=/var/lib/topup-batch", "PrivateTmp=yes",
                "User=topup", "Group=topup", "EnvironmentFile=/etc/topup-batch/topup-batch.env",
                "ExecStart=/usr/bin/java -jar /opt/topup-batch/topup-batch.jar",
                "KillSignal=SIGTERM", "SuccessExitStatus=143", "Restart=on-failure", "TimeoutStopSec=70");
        assertThat(lines).as("a system-call filter that denies @resources would refuse the JVM's setrlimit")
                .noneMatch(l -> l.startsWith("SystemCallFilter=~") && l.contains("@resources"));
    }

    /**
     * systemd-analyze verify without a running systemd: it reads the unit and checks that ExecStart's
     * program exists on this machine. Where /usr/bin/java is absent (a JDK elsewhere), a copy of the
     * unit with this JVM's path is verified instead; everything else is the shipped unit.
     */
    @Test
    void systemdAnalyzeVerifyFindsNothingToSay() throws Exception {
        Path unit = UNIT;
        if (!Files.isExecutable(Path.of("/usr/bin/java"))) {
            String java = ProcessHandle.current().info().command().orElseThrow();
            unit = Files.writeString(tmp.resolve("topup-batch.service"),
                    Files.readString(UNIT).replace("ExecStart=/usr/bin/java ", "ExecStart=" + java + " "));
            System.out.println("systemd-analyze verify: no /usr/bin/java here, verifying with ExecStart=" + java);
        }
        Result r = run(List.of(systemdAnalyze(), "verify", "--no-pager", unit.toString()));
        assertThat(r.code).as("systemd-analyze verify exit; it said:%n%s", r.output).isZero();
        assertThat(r.output.lines().filter(l -> l.contains("topup-batch")).toList())
                .as("systemd-analyze verify's remarks on the unit").isEmpty();
    }

    static String systemdAnalyze() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "systemd-analyze");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return fail("systemd-analyze is missing: install Debian's systemd package (apt-get install systemd; "
                + ".ci/run does it). The unit's hardening and syntax are checked with it; this test does not skip.");
    }

    record Result(int code, String output) {}

    Result install(Path root, Path jar) throws Exception {
        return run(List.of("bash", DEPLOY.resolve("install.sh").toString(), "--root", root.toString(), "--jar", jar.toString()));
    }

    static Result run(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("SYSTEMD_COLORS", "0");
        pb.environment().put("SYSTEMD_PAGER", "");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out: " + command);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    /** Every path below root with its kind, mode, owner, size, modification time and content digest. */
    static Map<String, String> snapshot(Path root) throws Exception {
        Map<String, String> tree = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            List<Path> paths = new ArrayList<>(all.toList());
            for (Path p : paths) {
                String digest = !Files.isRegularFile(p) ? "dir"
                        : !Files.isReadable(p) ? "unreadable"
                        : HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
                tree.put(root.relativize(p).toString(), mode(p) + " " + Files.getAttribute(p, "unix:uid") + ":"
                        + Files.getAttribute(p, "unix:gid") + " " + Files.size(p) + " " + Files.getLastModifiedTime(p)
                        + " " + digest);
            }
        }
        return tree;
    }
}
