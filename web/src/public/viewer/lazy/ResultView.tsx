import { Result } from 'antd';

/** antd's Result (its pictures weigh ~10 KB): only a dashboard that failed to load shows it. */
export default Result;
