import { Result } from 'antd';
import { withViewerAntd } from './ViewerAntd';

/** antd's Result (its pictures weigh ~10 KB): only a dashboard that failed to load shows it. */
export default withViewerAntd(Result);
