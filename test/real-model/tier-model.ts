// The model the real-model tier runs: the bundled Qwen2.5-Coder-0.5B-Instruct, not the default 1.5B. On CI's 2 cores
// the 1.5B reads a prompt about 3 times slower (its turns took up to 337 s here) and generates at about 13 tokens/s
// against 25 to 40; the tier asserts what holds whatever the model says, so the smaller one keeps it within CI's time.
import { qwenCoder05b } from '../../platform/local-model/pins.js';

export const tierModel = qwenCoder05b;
/** `local:<name>`: the worker starts its own server. */
export const tierLocalSpec = `local:${tierModel.name}`;
/** `openai:<name>`: a server the test started (its alias is the model's name). */
export const tierOpenAISpec = `openai:${tierModel.name}`;
