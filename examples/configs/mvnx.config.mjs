// A config as code: useful when values come from the environment of a build agent.
const onCi = process.env.CI === 'true';

export default {
  extends: 'assist',
  tier: onCi ? 'monitor' : 'assist',
  model: {
    provider: 'openai-compatible',
    name: 'qwen2.5-coder-7b-instruct',
    host: 'http://llm.internal:8000/v1',
    apiKeyEnv: 'LLM_API_KEY',
  },
};
