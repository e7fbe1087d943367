/**
 * The Java side of the repetition run (test-repeat.ts): a small program, compiled once per
 * machine and kept in mvnx's cache, that runs the failing tests through the JUnit Platform
 * launcher twice in one JVM: first as Surefire would (one launcher request per class), then
 * each test method again on its own, in the reverse of the order they finished the first
 * time. Static state the fix keeps (a first-call flag, a counter, a cached answer) lives on
 * between the two runs, as it does between two callers in production. The launcher is
 * reached by reflection only, so one compiled harness serves every JUnit Platform version
 * (the launcher jar of the project's own version goes on the class path). What the tests
 * print is swallowed; a run that does not end within the budget ends the JVM.
 *
 * Main methods compiled with a call to `RepeatRun.record` at their start (call-capture.ts)
 * report the arguments they are called with while the tests run: the inputs a test
 * computes, as the behavioural probe writes them (`n:1900`, `s:text`, `c:x`, `b:true`, `e:FEBRUARY`, `null`).
 *
 * Spec file, tab-separated lines: `budget <ms>`, `test <class> <method or empty>`.
 * Output: `t <run 1|2> <class>#<method> <SUCCESSFUL|FAILED|ABORTED> <first failure line>` per
 * test method and run, `c <site> <arg>...` per distinct captured call, `end <complete|budget>`;
 * `error <text>` when the launcher is missing.
 */
export const REPEAT_CLASS_NAME = 'mvnx.RepeatRun';

export const REPEAT_SOURCE = `package mvnx;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Written by mvnx into its workspace copy only: the failing tests run again in the same JVM. */
public final class RepeatRun {
    private static PrintStream out;
    private static final java.util.Set<String> captured = new java.util.LinkedHashSet<String>();
    private static final int MAX_CAPTURED = 256;

    /** Called at the start of an instrumented main method: its arguments, once per distinct call. */
    public static void record(String site, Object[] args) {
        StringBuilder line = new StringBuilder("c\\t").append(site);
        for (Object arg : args) {
            String value = canonical(arg);
            if (value == null) return;
            line.append('\\t').append(value.replace("\\\\", "\\\\\\\\").replace("\\t", "\\\\t").replace("\\n", "\\\\n").replace("\\r", "\\\\r"));
        }
        synchronized (captured) {
            if (captured.size() < MAX_CAPTURED) captured.add(line.toString());
        }
    }

    /** A value as the probe writes it; null for one it cannot make. */
    private static String canonical(Object value) {
        if (value == null) return "null";
        if (value instanceof String || value instanceof StringBuilder || value instanceof StringBuffer) return "s:" + value;
        if (value instanceof Character) return "c:" + value;
        if (value instanceof Boolean) return "b:" + value;
        if (value instanceof Enum) return "e:" + ((Enum<?>) value).name();
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
            || value instanceof Double || value instanceof Float) return "n:" + value;
        return null;
    }

    public static void main(String[] argv) throws Exception {
        out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        PrintStream sink = new PrintStream(new OutputStream() { public void write(int b) { } });
        System.setOut(sink);
        System.setErr(sink);
        long budget = 20000;
        final Map<String, List<String>> tests = new LinkedHashMap<String, List<String>>();
        for (String line : Files.readAllLines(Paths.get(argv[0]), StandardCharsets.UTF_8)) {
            String[] f = line.split("\\\\t", -1);
            if (f[0].equals("budget")) budget = Long.parseLong(f[1]);
            if (f[0].equals("test") && f.length >= 3) {
                List<String> methods = tests.get(f[1]);
                if (methods == null) { methods = new ArrayList<String>(); tests.put(f[1], methods); }
                if (!f[2].isEmpty()) methods.add(f[2]);
            }
        }
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> { Thread t = new Thread(r); t.setDaemon(true); return t; });
        Future<?> done = worker.submit(() -> { run(tests); return null; });
        String end = "complete";
        try {
            done.get(budget, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            end = "budget";
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            out.println("error\\t" + oneLine(cause.getClass().getName() + ": " + cause.getMessage()));
        }
        synchronized (captured) {
            for (String line : captured) out.println(line);
        }
        out.println("end\\t" + end);
        out.flush();
        Runtime.getRuntime().halt(0);
    }

    private static void run(Map<String, List<String>> tests) throws Exception {
        Class<?> factory = Class.forName("org.junit.platform.launcher.core.LauncherFactory");
        Object launcher = factory.getMethod("create").invoke(null);
        Class<?> requestType = Class.forName("org.junit.platform.launcher.LauncherDiscoveryRequest");
        Class<?> listenerType = Class.forName("org.junit.platform.launcher.TestExecutionListener");
        Method execute = Class.forName("org.junit.platform.launcher.Launcher")
            .getMethod("execute", requestType, Array.newInstance(listenerType, 0).getClass());
        Class<?> selectors = Class.forName("org.junit.platform.engine.discovery.DiscoverySelectors");
        Method selectClass = selectors.getMethod("selectClass", String.class);
        Method selectMethod = selectors.getMethod("selectMethod", String.class, String.class, String.class);
        // First run: each class's failing tests in one request, in the order Jupiter gives them.
        List<String> order = new ArrayList<String>();
        for (Map.Entry<String, List<String>> entry : tests.entrySet()) {
            List<Object> chosen = new ArrayList<Object>();
            if (entry.getValue().isEmpty()) chosen.add(selectClass.invoke(null, entry.getKey()));
            for (String method : entry.getValue()) {
                String types = parameterTypes(entry.getKey(), method);
                if (types != null) chosen.add(selectMethod.invoke(null, entry.getKey(), method, types));
            }
            if (!chosen.isEmpty()) execute(launcher, execute, requestType, listenerType, chosen, 1, order);
        }
        // Second run, same JVM: each test method on its own, the last to finish first.
        List<String> reversed = new ArrayList<String>(order);
        Collections.reverse(reversed);
        for (String test : reversed) {
            String[] parts = test.split("\\\\t", -1);
            Object selector = selectMethod.invoke(null, parts[0], parts[1], parts[2]);
            execute(launcher, execute, requestType, listenerType, Collections.singletonList(selector), 2, null);
        }
    }

    /** The parameter types of the named test method (the class or a superclass declares it); null when none. */
    private static String parameterTypes(String className, String method) {
        try {
            Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (!m.getName().equals(method)) continue;
                    StringBuilder names = new StringBuilder();
                    for (Class<?> p : m.getParameterTypes()) {
                        if (names.length() > 0) names.append(',');
                        names.append(p.getName());
                    }
                    return names.toString();
                }
            }
        } catch (Throwable e) {
            return null;
        }
        return null;
    }

    private static void execute(Object launcher, Method execute, Class<?> requestType, Class<?> listenerType,
            List<Object> chosen, final int run, final List<String> order) throws Exception {
        Class<?> builderType = Class.forName("org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder");
        Object builder = builderType.getMethod("request").invoke(null);
        builderType.getMethod("selectors", List.class).invoke(builder, chosen);
        Object request = builderType.getMethod("build").invoke(builder);
        final Map<String, String[]> results = new LinkedHashMap<String, String[]>();
        Object listener = Proxy.newProxyInstance(listenerType.getClassLoader(), new Class<?>[] { listenerType },
            (proxy, method, args) -> {
                if (method.getName().equals("hashCode")) return System.identityHashCode(proxy);
                if (method.getName().equals("equals")) return proxy == args[0];
                if (method.getName().equals("toString")) return "mvnx.RepeatRun listener";
                if (method.getName().equals("executionFinished")) finished(args[0], args[1], results);
                return null;
            });
        Object listeners = Array.newInstance(listenerType, 1);
        Array.set(listeners, 0, listener);
        execute.invoke(launcher, request, listeners);
        for (Map.Entry<String, String[]> result : results.entrySet()) {
            String[] key = result.getKey().split("\\\\t", -1);
            out.println("t\\t" + run + "\\t" + key[0] + "#" + key[1] + "\\t" + result.getValue()[0] + "\\t" + result.getValue()[1]);
            if (order != null) order.add(result.getKey());
        }
    }

    /** A test's end: kept per method (a parameterized method's invocations together; a failure wins). */
    private static void finished(Object identifier, Object result, Map<String, String[]> results) throws Exception {
        if (!(Boolean) identifier.getClass().getMethod("isTest").invoke(identifier)) return;
        Optional<?> source = (Optional<?>) identifier.getClass().getMethod("getSource").invoke(identifier);
        if (!source.isPresent() || !source.get().getClass().getName().endsWith(".MethodSource")) return;
        Object s = source.get();
        String key = s.getClass().getMethod("getClassName").invoke(s) + "\\t" + s.getClass().getMethod("getMethodName").invoke(s)
            + "\\t" + s.getClass().getMethod("getMethodParameterTypes").invoke(s);
        String status = String.valueOf(result.getClass().getMethod("getStatus").invoke(result));
        Optional<?> thrown = (Optional<?>) result.getClass().getMethod("getThrowable").invoke(result);
        String why = "";
        if (thrown.isPresent()) {
            Throwable t = (Throwable) thrown.get();
            why = oneLine(t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
        }
        String[] before = results.get(key);
        if (before == null || before[0].equals("SUCCESSFUL")) results.put(key, new String[] { status, why });
    }

    private static String oneLine(String text) {
        String line = text.replace('\\t', ' ').replace('\\r', ' ').replace('\\n', ' ');
        return line.length() > 300 ? line.substring(0, 300) : line;
    }
}
`;
