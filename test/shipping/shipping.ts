// Whether the tests of what ships (test/shipping: the image, the compose stack, npm start's timing) run.
// SHIPPING_TESTS unset: they run where their tools are (podman for the containers); `require`: they run,
// and a missing tool fails them; `skip`: they do not. CI runs them once, in a step of their own, where
// nothing else loads the machine (.ci/run), and skips them in its two runs of the whole suite.
const value = process.env.SHIPPING_TESTS ?? '';
if (!['', 'require', 'skip'].includes(value)) throw new Error(`SHIPPING_TESTS must be require or skip, got "${value}"`);

export const shippingTests: 'run' | 'require' | 'skip' = value === '' ? 'run' : (value as 'require' | 'skip');
